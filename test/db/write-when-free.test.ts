/**
 * The server's writes that race extraction processes for the database's write lock wait for it
 * without holding the event loop (#28, #32): while another connection holds the lock, timers keep
 * firing (here, the one that releases it), and the write lands once the lock is free. With only
 * busy_timeout the thread would sleep in SQLite's busy handler, the release would never run, and
 * the write would fail after 5 s.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { type OpenedDb, openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { writeWhenFree } from "../../src/db/write-when-free.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

let dir: string;
let opened: OpenedDb;

beforeAll(async () => {
  dir = tempDir("cf-write-free-");
  opened = await openDb(dir);
  opened.sqlite.run("CREATE TABLE notes (body TEXT)");
});
afterAll(() => {
  opened.sqlite.close();
  cleanup(dir);
});

test("a write waits for another connection's lock while the event loop runs", async () => {
  const other = new Database(join(dir, "courseforge.db"));
  other.run("BEGIN IMMEDIATE");
  other.run("INSERT INTO notes (body) VALUES ('theirs')");
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 5);
  const release = setTimeout(() => other.run("COMMIT"), 200);
  const started = performance.now();
  const n = await writeWhenFree(sqliteSql(opened.sqlite), async () => {
    opened.sqlite.run("INSERT INTO notes (body) VALUES ('ours')");
    return opened.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM notes").get()!.n;
  });
  const waited = performance.now() - started;
  clearInterval(ticker);
  clearTimeout(release);
  other.close();
  expect(n).toBe(2);
  expect(waited).toBeGreaterThanOrEqual(150);
  expect(ticks).toBeGreaterThan(0);
  // The connection's own busy_timeout is back for every other statement.
  expect(opened.sqlite.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()!.timeout).toBe(5_000);
});

test("an error of the write itself is thrown at once and rolls the transaction back", async () => {
  await expect(
    writeWhenFree(sqliteSql(opened.sqlite), async () => {
      opened.sqlite.run("INSERT INTO notes (body) VALUES ('half')");
      throw new Error("refused");
    }),
  ).rejects.toThrow("refused");
  expect(opened.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM notes WHERE body = 'half'").get()!.n).toBe(
    0,
  );
});

test("writes that wait for the lock together commit together, and one that throws is undone alone", async () => {
  const other = new Database(join(dir, "courseforge.db"));
  other.run("BEGIN IMMEDIATE");
  const release = setTimeout(() => other.run("COMMIT"), 200);
  const insert = (body: string) => opened.sqlite.run("INSERT INTO notes (body) VALUES (?)", [body]);
  const visibleElsewhere = (body: string) =>
    other.query<{ n: number }, [string]>("SELECT count(*) AS n FROM notes WHERE body = ?").get(body)!.n;
  const settled = await Promise.allSettled([
    writeWhenFree(sqliteSql(opened.sqlite), async () => insert("first")),
    writeWhenFree(sqliteSql(opened.sqlite), async () => {
      insert("refused");
      throw new Error("refused");
    }),
    // Run in the same transaction as the first: another connection does not see the first yet.
    writeWhenFree(sqliteSql(opened.sqlite), async () => {
      insert("third");
      return visibleElsewhere("first");
    }),
  ]);
  clearTimeout(release);
  expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect((settled[1] as PromiseRejectedResult).reason.message).toBe("refused");
  expect((settled[2] as PromiseFulfilledResult<number>).value).toBe(0);
  expect(["first", "refused", "third"].map(visibleElsewhere)).toEqual([1, 0, 1]);
  other.close();
});
