/**
 * A connection to DATA_DIR/courseforge.db as every process opens it: WAL, sqlite-vec loaded, no
 * migrations and no ORM. Extraction processes and the engine's thread open it this way, so each
 * new one skips loading the schema and drizzle (a tenth of a second of CPU per process).
 */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sqliteVecPath } from "./vec-extension.ts";

export async function openConnection(dataDir: string, opts: { busyTimeoutMs?: number } = {}): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(join(dataDir, "courseforge.db"), { create: true, strict: true });
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
  return sqlite;
}
