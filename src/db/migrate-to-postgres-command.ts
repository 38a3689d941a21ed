/** `courseforge migrate-to-postgres`: DATA_DIR's database copied into DATABASE_URL's, with no server running on it. */
import { SQL } from "bun";
import { type CopiedTable, copyToPostgres } from "./copy-to-postgres.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { openDb } from "./index.ts";

export async function migrateToPostgres(dataDir: string, databaseUrl: string): Promise<CopiedTable[]> {
  // A server writing meanwhile would leave rows behind: the copy holds the data directory as a server would.
  const lock = lockDataDir(dataDir);
  const { sqlite } = await openDb(dataDir);
  const client = new SQL(databaseUrl);
  try {
    return await copyToPostgres(sqlite, client);
  } finally {
    await client.close();
    sqlite.close();
    lock.release();
  }
}
