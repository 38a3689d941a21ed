/**
 * A seam transaction on SQLite that reads, yields, then writes is not refused because another
 * connection (an extraction process, the engine's thread) wrote in between. Begun deferred, it read
 * from a snapshot that the other commit made stale, and its write failed at once with "database is
 * locked" (a course job failed so under load); begun IMMEDIATE it holds the write lock from the
 * start, so the other writer waits for it instead.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { openDb } from "../../src/db/index.ts";
import { sql, sqliteSql } from "../../src/db/sql.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const dir = tempDir("cf-seam-lock-");
const { sqlite } = await openDb(dir);
afterAll(() => {
  sqlite.close();
  cleanup(dir);
});

test("a transaction that reads, yields and writes commits although another connection tried to write meanwhile", async () => {
  sqlite.run("CREATE TABLE seam_counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
  sqlite.run("INSERT INTO seam_counter (id, n) VALUES (1, 0)");
  // Another process's connection, which does not wait for the lock.
  const other = new Database(join(dir, "courseforge.db"));
  other.run("PRAGMA busy_timeout = 0");
  let otherWrote = false;
  const db = sqliteSql(sqlite);
  await db.transaction(async (tx) => {
    const row = await tx.get<{ n: number }>(sql`SELECT n FROM seam_counter WHERE id = 1`);
    await Bun.sleep(1);
    try {
      other.run("INSERT INTO seam_counter (id, n) VALUES (2, 0)");
      otherWrote = true;
    } catch (err) {
      expect((err as { code?: string }).code).toBe("SQLITE_BUSY");
    }
    await tx.run(sql`UPDATE seam_counter SET n = ${row!.n + 1} WHERE id = 1`);
  });
  other.close();
  expect(otherWrote).toBe(false);
  expect(sqlite.query<{ n: number }, []>("SELECT n FROM seam_counter WHERE id = 1").get()!.n).toBe(1);
});
