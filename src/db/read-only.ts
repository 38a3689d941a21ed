/**
 * A read-only connection to the server's database for a worker thread (the extractive engine's
 * thread reads a document's chunks to find its repeats and plan its course there, off the server's
 * thread). WAL lets it read beside the server's one writing connection. One per database file; a
 * process that opened several (tests, each with its own data directory) keeps the latest few.
 */
import { Database } from "bun:sqlite";

const KEPT = 4;
const open = new Map<string, Database>();

export function readOnlyDb(path: string): Database {
  const held = open.get(path);
  if (held) return held;
  const db = new Database(path, { readonly: true, strict: true });
  db.run("PRAGMA busy_timeout = 5000");
  open.set(path, db);
  if (open.size > KEPT) {
    const [oldest, conn] = open.entries().next().value!;
    open.delete(oldest);
    conn.close();
  }
  return db;
}
