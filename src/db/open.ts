/**
 * The server's store, on the engine the settings name: PostgreSQL when DATABASE_URL is set (its
 * migrations applied at start under their advisory lock, and its schema checked against the
 * declared one), else SQLite in DATA_DIR as always. What the rest of the server sees is the same:
 * the seam, the event bus of that engine, and the address worker threads and extraction processes
 * open the same database by.
 */
import { SQL } from "bun";
import { type EventBus, localBus, postgresBus } from "../events/bus.ts";
import { openDb } from "./index.ts";
import { migratePostgres } from "./postgres/migrate.ts";
import { assertPostgresSchema } from "./postgres/schema-check.ts";
import { postgresSql, type Sql, sqliteSql } from "./sql.ts";

export interface Store {
  sql: Sql;
  events: EventBus;
  /** The SQLite file or the PostgreSQL URL: what a worker thread or an extraction process opens. */
  address: string;
  close(): Promise<void>;
}

export async function openStore(cfg: { dataDir: string; databaseUrl: string | null }): Promise<Store> {
  if (cfg.databaseUrl) {
    const client = new SQL(cfg.databaseUrl);
    try {
      await migratePostgres(client);
      await assertPostgresSchema(client);
    } catch (err) {
      await client.close();
      throw err;
    }
    return {
      sql: postgresSql(client),
      events: postgresBus(client),
      address: cfg.databaseUrl,
      close: () => client.close(),
    };
  }
  const { sqlite } = await openDb(cfg.dataDir);
  return {
    sql: sqliteSql(sqlite),
    events: localBus(sqlite),
    address: sqlite.filename,
    close: async () => sqlite.close(),
  };
}
