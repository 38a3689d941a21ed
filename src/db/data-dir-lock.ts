/**
 * One server per data directory. Two servers on one DATA_DIR would each take the other's
 * in-flight documents for crashed ones, sweep its uploads, and double every rate limit. The lock
 * is SQLite's own exclusive lock (an fcntl lock) on DATA_DIR/server.lock, held by a connection
 * kept open for the server's life: the kernel drops it when the process ends, even by kill -9,
 * so there is no stale lock to clean up.
 *
 * The lock is also the node's identity: a random id kept in the same file, made at the first start
 * and the same at every restart on this data directory. Several nodes on one PostgreSQL each have
 * their own data directory, so a node restarting after a crash recognises the work it left (the
 * documents it was ingesting) and leaves the other nodes' alone.
 */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

export interface DataDirLock {
  /** This data directory's node id. */
  node: string;
  release(): void;
}

export class DataDirInUse extends Error {}

export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "server.lock");
  const db = new Database(path, { create: true });
  let node: string;
  try {
    db.run("PRAGMA busy_timeout = 0");
    // In exclusive locking mode the lock taken by the first write is never given back until close.
    db.run("PRAGMA locking_mode = EXCLUSIVE");
    db.run("BEGIN EXCLUSIVE");
    db.run("CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)");
    db.run("DELETE FROM holder");
    db.run("INSERT INTO holder (pid) VALUES (?)", [process.pid]);
    db.run("CREATE TABLE IF NOT EXISTS node (id TEXT NOT NULL)");
    db.run("INSERT INTO node (id) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM node)", [crypto.randomUUID()]);
    node = db.query<{ id: string }, []>("SELECT id FROM node").get()!.id;
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
  return { node, release: () => db.close() };
}
