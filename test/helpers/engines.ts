/**
 * The two engines an owner's storage tests run on: SQLite (the server's, in a temporary data
 * directory) and PostgreSQL (a throwaway cluster, migrated). Each test file runs its cases on
 * both with `describe.each(ENGINES)`.
 */
import { openDb } from "../../src/db/index.ts";
import { migratePostgres } from "../../src/db/postgres/migrate.ts";
import { postgresSql, type Sql, sqliteSql } from "../../src/db/sql.ts";
import { startPostgres } from "./postgres.ts";
import { cleanup, tempDir } from "./server.ts";

export interface Engine {
  db: Sql;
  /** What a worker thread opens the same database by: the SQLite file, or the PostgreSQL URL. */
  address: string;
  close(): Promise<void>;
}

export async function sqliteEngine(): Promise<Engine> {
  const dir = tempDir("cf-engines-");
  const o = await openDb(dir);
  return {
    db: sqliteSql(o.sqlite),
    address: o.sqlite.filename,
    async close() {
      o.sqlite.close();
      cleanup(dir);
    },
  };
}

export async function postgresEngine(): Promise<Engine> {
  const pg = await startPostgres();
  await migratePostgres(pg.client);
  return { db: postgresSql(pg.client), address: pg.url, close: () => pg.stop() };
}

export const ENGINES: [string, () => Promise<Engine>][] = [
  ["SQLite", sqliteEngine],
  ["PostgreSQL", postgresEngine],
];
