/**
 * The server's database for reading from a worker thread (the extractive engine's thread reads a
 * document's chunks to find its repeats and plan its course there, off the server's thread), named
 * by its address: a PostgreSQL URL (a pool of the thread's own), else the SQLite file, opened
 * read-only (WAL lets it read beside the server's one writing connection). One per address; a
 * process that opened several (tests, each with its own data directory) keeps the latest few.
 */
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { postgresSql, type Sql, sqliteSql } from "./sql.ts";

const KEPT = 4;
const open = new Map<string, { sql: Sql; close(): void }>();

const isPostgresUrl = (address: string) => /^postgres(ql)?:\/\//.test(address);

function connect(address: string): { sql: Sql; close(): void } {
  if (isPostgresUrl(address)) {
    const client = new SQL(address);
    return { sql: postgresSql(client), close: () => void client.close() };
  }
  const db = new Database(address, { readonly: true, strict: true });
  db.run("PRAGMA busy_timeout = 5000");
  return { sql: sqliteSql(db), close: () => db.close() };
}

export function readOnlySql(address: string): Sql {
  const held = open.get(address);
  if (held) return held.sql;
  const conn = connect(address);
  open.set(address, conn);
  if (open.size > KEPT) {
    const [oldest, gone] = open.entries().next().value!;
    open.delete(oldest);
    gone.close();
  }
  return conn.sql;
}
