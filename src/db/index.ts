import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "./migrate.ts";
import * as schema from "./schema/index.ts";
import { sqliteVecPath } from "./vec-extension.ts";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export interface OpenedDb {
  sqlite: Database;
  db: Db;
  path: string;
}

/**
 * Opens (creating if needed) DATA_DIR/courseforge.db in WAL mode, loads sqlite-vec and applies
 * pending migrations. One connection per process: bun:sqlite is synchronous, so a single
 * connection serialises writes without SQLITE_BUSY between our own requests.
 */
export async function openDb(
  dataDir: string,
  opts: { migrate?: boolean; busyTimeoutMs?: number } = {},
): Promise<OpenedDb> {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "courseforge.db");
  const sqlite = new Database(path, { create: true, strict: true });
  // busy_timeout first: switching to WAL takes a lock, and another process (the server, a CLI
  // command, a test) may hold one for a moment.
  sqlite.run(`PRAGMA busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA foreign_keys = ON");
  // Searches scan vector codes and FTS postings again and again, and every request reads a few
  // rows: memory-mapped pages skip a read syscall and a copy per page.
  sqlite.run(`PRAGMA mmap_size = ${1024 * 1024 * 1024}`);
  sqlite.loadExtension(await sqliteVecPath(dataDir));
  if (opts.migrate !== false) migrate(sqlite);
  const db = drizzle(sqlite, { schema }) as Db;
  return { sqlite, db, path };
}

export { schema };
