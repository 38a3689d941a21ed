import type { Database } from "bun:sqlite";
import { join } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import { openConnection } from "./connection.ts";
import { migrate } from "./migrate.ts";
import * as schema from "./schema/index.ts";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export interface OpenedDb {
  sqlite: Database;
  db: Db;
  path: string;
}

/**
 * Opens (creating if needed) DATA_DIR/courseforge.db (connection.ts) and applies pending
 * migrations. One connection per process: bun:sqlite is synchronous, so a single
 * connection serialises writes without SQLITE_BUSY between our own requests.
 */
export async function openDb(
  dataDir: string,
  opts: { migrate?: boolean; busyTimeoutMs?: number } = {},
): Promise<OpenedDb> {
  const sqlite = await openConnection(dataDir, opts);
  if (opts.migrate !== false) migrate(sqlite);
  const db = drizzle(sqlite, { schema }) as Db;
  return { sqlite, db, path: join(dataDir, "courseforge.db") };
}

export { schema };
