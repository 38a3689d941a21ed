/**
 * When SQLite rolls a seam transaction back itself (a full disk: SQLITE_FULL ends the transaction),
 * the caller gets that error, not "cannot rollback - no transaction is active" from rolling back a
 * second time: the disk-full error is what the HTTP layer answers with 507, the other a 500.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { type Sql, sql, sqliteSql } from "../../src/db/sql.ts";
import { writeWhenFree } from "../../src/db/write-when-free.ts";

/** A database that holds a few pages at most: SQLite answers a write past them as a full disk. */
function smallDatabase(): Database {
  const db = new Database(":memory:");
  db.run("CREATE TABLE blobs (b BLOB NOT NULL)");
  db.run("PRAGMA max_page_count = 20");
  return db;
}

async function fill(tx: Sql): Promise<void> {
  for (let i = 0; i < 100; i++) await tx.run(sql`INSERT INTO blobs (b) VALUES (${new Uint8Array(4000)})`);
}

test("a transaction the disk filled fails with the full disk's error and leaves no transaction open", async () => {
  const db = smallDatabase();
  const err: { code?: string } = await sqliteSql(db)
    .transaction(fill)
    .then(
      () => ({}),
      (e: unknown) => e as { code?: string },
    );
  expect(err.code).toBe("SQLITE_FULL");
  expect(db.inTransaction).toBe(false);
  expect(db.query("SELECT count(*) AS n FROM blobs").get()).toEqual({ n: 0 });
});

test("so does one nested in another: neither level hides it", async () => {
  const db = smallDatabase();
  const err: { code?: string } = await sqliteSql(db)
    .transaction((outer) => outer.transaction(fill))
    .then(
      () => ({}),
      (e: unknown) => e as { code?: string },
    );
  expect(err.code).toBe("SQLITE_FULL");
  expect(db.inTransaction).toBe(false);
});

test("writes that waited together are told the truth when one fills the disk: each resolved write is stored, each rejected one is not", async () => {
  const db = smallDatabase();
  db.run("CREATE TABLE notes (body TEXT NOT NULL)");
  const seam = sqliteSql(db);
  const note = (body: string) => async (tx: Sql) => {
    await tx.run(sql`INSERT INTO notes (body) VALUES (${body})`);
  };
  // Asked for in one turn of the event loop, the three share one transaction.
  const settled = await Promise.allSettled([
    writeWhenFree(seam, note("before")),
    writeWhenFree(seam, fill),
    writeWhenFree(seam, note("after")),
  ]);
  const stored = new Set(
    db
      .query<{ body: string }, []>("SELECT body FROM notes")
      .all()
      .map((r) => r.body),
  );
  expect(settled[1]!.status).toBe("rejected");
  expect((settled[1] as PromiseRejectedResult).reason.code).toBe("SQLITE_FULL");
  expect(settled[0]!.status === "fulfilled").toBe(stored.has("before"));
  expect(settled[2]!.status === "fulfilled").toBe(stored.has("after"));
  // The write after the full one did not depend on it: it is stored.
  expect(settled[2]!.status).toBe("fulfilled");
  expect(db.inTransaction).toBe(false);
});
