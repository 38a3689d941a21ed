/**
 * The numbered migrations are the schema; the drizzle tables (src/db/schema) declare the same
 * thing for typed queries. Both are read here, the migrations by applying them to a fresh SQLite:
 * the same tables, and in each the same columns (type, nullability, primary key), unique
 * constraints and indexes (name, uniqueness, partial or not, columns in order; not their sort
 * direction, which drizzle's SQLite indexes do not declare). PostgreSQL's migrations, applied to a
 * throwaway cluster, must declare the same tables with the same columns, their types mapped,
 * the same nullability and primary keys, and the same indexes and unique constraints (named
 * alike, unique or not, partial or not, columns in order).
 */
import { afterAll, expect, test } from "bun:test";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { openDb } from "../../src/db/index.ts";
import { migratePostgres } from "../../src/db/postgres/migrate.ts";
import * as schema from "../../src/db/schema/index.ts";
import { startPostgres } from "../helpers/postgres.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const dir = tempDir("cf-schema-");
const { sqlite } = await openDb(dir);
const pg = await startPostgres();
await migratePostgres(pg.client);
afterAll(async () => {
  sqlite.close();
  cleanup(dir);
  await pg.stop();
});

const declared = (Object.values(schema) as unknown[])
  .filter((v): v is SQLiteTable => typeof v === "object" && v !== null && Symbol.for("drizzle:IsDrizzleTable") in v)
  .map((t) => getTableConfig(t));

/**
 * Tables no drizzle query reads: the migrations' own ledger, and the full-text and vector indexes
 * (virtual tables and their shadow tables), which are queried in SQL only.
 */
function migratedTables(): string[] {
  const rows = sqlite
    .query<{ name: string; sql: string }, []>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .all();
  const virtual = rows.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql)).map((r) => r.name);
  const shadowOf = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  return rows
    .map((r) => r.name)
    .filter((name) => name !== "schema_migrations" && !virtual.includes(name) && !shadowOf(name))
    .sort();
}

type Column = { name: string; type: string; notNull: boolean; primaryKey: boolean };
type Index = { name: string | null; columns: string[]; unique: boolean; partial: boolean };

function migratedColumns(table: string): Column[] {
  return sqlite
    .query<{ name: string; type: string; notnull: number; pk: number }, []>(`PRAGMA table_info("${table}")`)
    .all()
    .map((c) => ({
      name: c.name,
      type: c.type.toLowerCase(),
      notNull: c.notnull === 1 || c.pk > 0,
      primaryKey: c.pk > 0,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Indexes and unique constraints; the ones SQLite names itself (a UNIQUE column) go without name. */
function migratedIndexes(table: string): Index[] {
  return sqlite
    .query<{ name: string; unique: number; origin: string; partial: number }, []>(`PRAGMA index_list("${table}")`)
    .all()
    .filter((i) => i.origin !== "pk")
    .map((i) => ({
      name: i.origin === "c" ? i.name : null,
      unique: i.unique === 1,
      partial: i.partial === 1,
      columns: sqlite
        .query<{ name: string }, []>(`PRAGMA index_info("${i.name}")`)
        .all()
        .map((c) => c.name),
    }))
    .sort(byIndex);
}

const byIndex = (a: Index, b: Index) =>
  `${a.name ?? ""}:${a.columns.join(",")}`.localeCompare(`${b.name ?? ""}:${b.columns.join(",")}`);

const declaredColumns = (cfg: ReturnType<typeof getTableConfig>): Column[] => {
  const compositeKey = new Set(cfg.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)));
  return cfg.columns
    .map((c) => ({
      name: c.name,
      type: c.getSQLType().toLowerCase(),
      notNull: c.notNull || c.primary || compositeKey.has(c.name),
      primaryKey: c.primary || compositeKey.has(c.name),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
};

const declaredIndexes = (cfg: ReturnType<typeof getTableConfig>): Index[] =>
  [
    ...cfg.columns
      .filter((c) => c.isUnique)
      .map((c) => ({ name: null, unique: true, partial: false, columns: [c.name] })),
    ...cfg.uniqueConstraints.map((u) => ({
      name: null,
      unique: true,
      partial: false,
      columns: u.columns.map((c) => c.name),
    })),
    ...cfg.indexes.map((i) => ({
      name: i.config.name,
      unique: i.config.unique,
      partial: i.config.where !== undefined,
      columns: i.config.columns.map((c) => (c as { name: string }).name),
    })),
  ].sort(byIndex);

test("the drizzle schema declares exactly the migrated tables", () => {
  expect(declared.map((t) => t.name).sort()).toEqual(migratedTables());
});

test.each(declared.map((t) => [t.name, t] as const))("%s: same columns, types, nullability and keys", (_, cfg) => {
  expect(declaredColumns(cfg)).toEqual(migratedColumns(cfg.name));
});

test.each(declared.map((t) => [t.name, t] as const))("%s: same indexes and unique constraints", (_, cfg) => {
  expect(declaredIndexes(cfg)).toEqual(migratedIndexes(cfg.name));
});

/** SQLite's declared type → the PostgreSQL types that may stand for it (bigint where 2^31 is too few). */
const PG_TYPES: Record<string, string[]> = {
  text: ["text"],
  integer: ["integer", "bigint"],
  real: ["double precision"],
  blob: ["bytea"],
};

/**
 * PostgreSQL's own search structures, which stand for SQLite's FTS5 virtual tables (left out of
 * migratedTables above) and share no SQL with them: the chunks' generated tsvector and its GIN index,
 * and the statistics BM25 reads, each chunk's length and the terms' counts (FTS5 keeps its own inside
 * the index).
 */
const POSTGRES_SEARCH = {
  tables: ["retrieval_terms", "retrieval_term_totals"],
  columns: ["retrieval_chunks.search", "retrieval_chunks.search_length"],
  indexes: ["retrieval_chunks_search"],
};

/** PostgreSQL's `rowid` stands for SQLite's implicit rowid (the baseline migration says why). */
async function postgresColumns(table: string): Promise<Column[]> {
  const all: { name: string; type: string; nullable: string }[] = await pg.client.unsafe(
    `SELECT column_name AS name, data_type AS type, is_nullable AS nullable FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = $1 AND column_name <> 'rowid'`,
    [table],
  );
  const rows = all.filter((c) => !POSTGRES_SEARCH.columns.includes(`${table}.${c.name}`));
  const keys: { name: string }[] = await pg.client.unsafe(
    `SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = $1::regclass AND i.indisprimary`,
    [table],
  );
  const primary = new Set(keys.map((k) => k.name));
  return rows
    .map((c) => ({ name: c.name, type: c.type, notNull: c.nullable === "NO", primaryKey: primary.has(c.name) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** PostgreSQL's own tables: the rate limits' counts, which SQLite's one process keeps in memory (0016_rate_windows). */
const POSTGRES_TABLES = ["rate_windows"];

test("PostgreSQL's migrations declare the migrated SQLite tables", async () => {
  const rows: { name: string }[] = await pg.client.unsafe(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'schema_migrations'",
  );
  const tables = rows.map((r) => r.name).filter((name) => !POSTGRES_SEARCH.tables.includes(name));
  expect(tables.sort()).toEqual([...migratedTables(), ...POSTGRES_TABLES].sort());
});

test.each(migratedTables())("%s on PostgreSQL: same columns, mapped types, nullability and keys", async (table) => {
  const onPostgres = await postgresColumns(table);
  const expected = migratedColumns(table).map((c) => ({
    ...c,
    type: PG_TYPES[c.type]?.includes(onPostgres.find((p) => p.name === c.name)?.type ?? "")
      ? onPostgres.find((p) => p.name === c.name)!.type
      : `one of ${PG_TYPES[c.type]?.join(", ") ?? "(no mapping)"} for SQLite ${c.type}`,
  }));
  expect(onPostgres).toEqual(expected);
});

/**
 * Indexes and unique constraints of a table on PostgreSQL, as migratedIndexes reads SQLite's: an
 * index standing for a UNIQUE constraint goes without name, as SQLite's own do.
 */
async function postgresIndexes(table: string): Promise<Index[]> {
  const rows: { name: string; unique: boolean; partial: boolean; constraint: boolean; columns: string }[] =
    await pg.client.unsafe(
      `SELECT ic.relname AS name, i.indisunique AS unique, i.indpred IS NOT NULL AS partial,
              EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype = 'u') AS constraint,
              (SELECT string_agg(coalesce(a.attname, '(expression)'), ',' ORDER BY k.n)
                 FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                 LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum) AS columns
         FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
        WHERE i.indrelid = $1::regclass AND NOT i.indisprimary`,
      [table],
    );
  return rows
    .filter((r) => !POSTGRES_SEARCH.indexes.includes(r.name))
    .map((r) => ({
      name: r.constraint ? null : r.name,
      unique: r.unique,
      partial: r.partial,
      columns: r.columns.split(","),
    }))
    .sort(byIndex);
}

test.each(migratedTables())("%s on PostgreSQL: same indexes and unique constraints", async (table) => {
  const onSqlite = migratedIndexes(table).map((i) => ({ ...i, columns: i.columns.map((c) => c ?? "(expression)") }));
  expect(await postgresIndexes(table)).toEqual(onSqlite);
});

test("PostgreSQL's search structures left out above are there: the chunks' tsvector under a GIN index, the term statistics", async () => {
  const column: { type: string; generated: string }[] = await pg.client.unsafe(
    `SELECT data_type AS type, is_generated AS generated FROM information_schema.columns
      WHERE table_name = 'retrieval_chunks' AND column_name = 'search'`,
  );
  expect(column).toEqual([{ type: "tsvector", generated: "ALWAYS" }]);
  const index: { method: string }[] = await pg.client.unsafe(
    `SELECT am.amname AS method FROM pg_class c JOIN pg_am am ON am.oid = c.relam WHERE c.relname = 'retrieval_chunks_search'`,
  );
  expect(index).toEqual([{ method: "gin" }]);
  const statistics: { name: string }[] = await pg.client.unsafe(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_name = ANY($1) ORDER BY table_name",
    [POSTGRES_SEARCH.tables],
  );
  expect(statistics.map((t) => t.name)).toEqual([...POSTGRES_SEARCH.tables].sort());
});
