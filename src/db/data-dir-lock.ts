/**
 * One server per data directory. Two servers on one DATA_DIR would each take the other's
 * in-flight documents for crashed ones, sweep its uploads, and double every rate limit. The lock
 * is SQLite's own exclusive lock (an fcntl lock) on DATA_DIR/server.lock, held by a connection
 * kept open for the server's life: the kernel drops it when the process ends, even by kill -9,
 * so there is no stale lock to clean up. The file's content does not matter.
 */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

export interface DataDirLock {
  release(): void;
}

export class DataDirInUse extends Error {}

export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "server.lock");
  const db = new Database(path, { create: true });
  try {
    db.run("PRAGMA busy_timeout = 0");
    // In exclusive locking mode the lock taken by the first write is never given back until close.
    db.run("PRAGMA locking_mode = EXCLUSIVE");
    db.run("BEGIN EXCLUSIVE");
    db.run("CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)");
    db.run("DELETE FROM holder");
    db.run("INSERT INTO holder (pid) VALUES (?)", [process.pid]);
    db.run("COMMIT");
  } catch (err) {
    db.close();
    if (/locked|busy/i.test((err as Error).message)) {
      throw new DataDirInUse(
        `another courseforge server is already running on DATA_DIR ${dataDir} (it holds ${path}); stop it, or give this one its own DATA_DIR`,
      );
    }
    throw err;
  }
  return { release: () => db.close() };
}
