/**
 * The ingest commit (`writeWhenFree`) on both engines: writes asked for at once all land, one that
 * throws is undone and rejected alone, and each write's statements go through the transaction it
 * is handed (on SQLite a savepoint of the shared commit, on PostgreSQL a transaction of its own).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "../../src/db/sql.ts";
import { writeWhenFree } from "../../src/db/write-when-free.ts";
import { ENGINES, type Engine } from "../helpers/engines.ts";

describe.each(ENGINES)("the ingest commit on %s", (_, open) => {
  let e: Engine;
  beforeAll(async () => {
    e = await open();
    await e.db.run(sql`CREATE TABLE notes (body TEXT NOT NULL)`);
  }, 120_000);
  afterAll(() => e?.close());

  const count = async (body: string) =>
    Number((await e.db.get<{ n: unknown }>(sql`SELECT count(*) AS n FROM notes WHERE body = ${body}`))!.n);

  test("writes at once all land but the one that throws, which leaves nothing", async () => {
    const settled = await Promise.allSettled([
      writeWhenFree(e.db, async (tx) => tx.run(sql`INSERT INTO notes (body) VALUES ('first')`)),
      writeWhenFree(e.db, async (tx) => {
        await tx.run(sql`INSERT INTO notes (body) VALUES ('refused')`);
        throw new Error("refused");
      }),
      writeWhenFree(e.db, async (tx) => {
        await tx.run(sql`INSERT INTO notes (body) VALUES ('third')`);
        await tx.run(sql`INSERT INTO notes (body) VALUES ('third')`);
        return "done";
      }),
    ]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((settled[2] as PromiseFulfilledResult<string>).value).toBe("done");
    expect([await count("first"), await count("refused"), await count("third")]).toEqual([1, 0, 2]);
  });
});
