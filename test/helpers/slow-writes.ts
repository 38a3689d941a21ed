/**
 * PostgreSQL only: every write of a table (rows matching `when`, if given) holds its transaction
 * open `seconds` longer, before the row is written. A second connection's statement then runs
 * while the first has not committed, so a test of a lock (or of SKIP LOCKED) fails when the lock
 * is missing instead of passing by the luck of timing.
 */
import { raw, type Sql, sql } from "../../src/db/sql.ts";

export interface SlowWrites {
  table: string;
  on: "INSERT" | "UPDATE";
  seconds: number;
  /** A trigger condition on NEW (SQL text written by the test). */
  when?: string;
}

export async function slowWrites(db: Sql, w: SlowWrites): Promise<void> {
  if (db.dialect !== "postgres") throw new Error("slowWrites needs PostgreSQL (a plpgsql trigger)");
  const name = raw(`slow_${w.table}_${w.on.toLowerCase()}`);
  await db.run(sql`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_sleep(${raw(String(w.seconds))}); RETURN NEW; END $$`);
  const when = w.when ? sql` WHEN (${raw(w.when)})` : sql``;
  await db.run(sql`CREATE TRIGGER ${name} BEFORE ${raw(w.on)} ON ${raw(w.table)}
    FOR EACH ROW${when} EXECUTE FUNCTION ${name}()`);
}
