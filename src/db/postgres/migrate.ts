import type { SQL } from "bun";
import { postgresMigrations } from "./migrations/index.ts";

/**
 * Applies the PostgreSQL migrations not yet recorded and returns their versions. They run in one
 * transaction (PostgreSQL's DDL is transactional: all apply or none), under an advisory lock, so
 * nodes starting together on one database apply each once: the others wait, then find it recorded.
 */
export async function migratePostgres(client: SQL): Promise<string[]> {
  return client.begin(async (tx) => {
    await tx.unsafe("SELECT pg_advisory_xact_lock(hashtext('courseforge.migrate'))");
    await tx.unsafe(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at text NOT NULL)",
    );
    const rows: { version: string }[] = await tx.unsafe("SELECT version FROM schema_migrations");
    const applied = new Set(rows.map((r) => r.version));
    const done: string[] = [];
    for (const m of postgresMigrations) {
      if (applied.has(m.version)) continue;
      await tx.unsafe(m.sql);
      await tx.unsafe("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", [
        m.version,
        new Date().toISOString(),
      ]);
      done.push(m.version);
    }
    return done;
  });
}
