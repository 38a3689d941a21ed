import type { Database } from "bun:sqlite";
import { migrations } from "./migrations/index.ts";

/** Applies every migration not yet recorded, each in its own transaction. Returns the versions applied. */
export function migrate(sqlite: Database): string[] {
  sqlite.run("CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
  const applied = new Set(
    sqlite
      .query<{ version: string }, []>("SELECT version FROM schema_migrations")
      .all()
      .map((r) => r.version),
  );
  const done: string[] = [];
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    sqlite.transaction(() => {
      sqlite.run(m.sql);
      sqlite.run("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", [
        m.version,
        new Date().toISOString(),
      ]);
    })();
    done.push(m.version);
  }
  return done;
}
