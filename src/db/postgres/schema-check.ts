/**
 * At start on PostgreSQL, after the migrations: every table the schema declares (src/db/schema,
 * the drizzle tables test/db compares with both engines' migrations) must be there with each of
 * its columns, of the type SQLite's maps to and the same nullability. A database migrated by
 * another version of the server, or edited by hand, stops the start with what differs rather than
 * failing requests one by one. PostgreSQL's own columns and tables (the search structures, `rowid`,
 * the rate windows) are not the declared schema's and are left alone.
 */
import type { SQL } from "bun";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../schema/index.ts";

/** SQLite's declared type → the PostgreSQL types that may stand for it (bigint where 2^31 is too few). */
const PG_TYPES: Record<string, string[]> = {
  text: ["text"],
  integer: ["integer", "bigint"],
  real: ["double precision"],
  blob: ["bytea"],
};

const declaredTables = (Object.values(schema) as unknown[])
  .filter((v): v is SQLiteTable => typeof v === "object" && v !== null && Symbol.for("drizzle:IsDrizzleTable") in v)
  .map((t) => getTableConfig(t));

export class SchemaMismatch extends Error {}

export async function assertPostgresSchema(client: SQL): Promise<void> {
  const rows: { table: string; name: string; type: string; nullable: string }[] = await client.unsafe(
    `SELECT table_name AS table, column_name AS name, data_type AS type, is_nullable AS nullable
       FROM information_schema.columns WHERE table_schema = current_schema()`,
  );
  const found = new Map(rows.map((r) => [`${r.table}.${r.name}`, r]));
  const differences: string[] = [];
  for (const t of declaredTables) {
    const keyed = new Set(t.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)));
    for (const c of t.columns) {
      const at = `${t.name}.${c.name}`;
      const pg = found.get(at);
      const type = c.getSQLType().toLowerCase();
      const notNull = c.notNull || c.primary || keyed.has(c.name);
      if (!pg) differences.push(`${at} is missing`);
      else if (!PG_TYPES[type]?.includes(pg.type)) differences.push(`${at} is ${pg.type}, not one for ${type}`);
      else if ((pg.nullable === "NO") !== notNull) differences.push(`${at} is ${notNull ? "nullable" : "NOT NULL"}`);
    }
  }
  if (differences.length > 0) {
    throw new SchemaMismatch(
      `the PostgreSQL database's schema is not this server's (${differences.length} differences): ${differences.slice(0, 10).join("; ")}`,
    );
  }
}
