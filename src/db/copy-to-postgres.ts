/**
 * `courseforge migrate-to-postgres`: an existing SQLite data directory copied into an empty
 * PostgreSQL database, for an install moving to several nodes. The PostgreSQL migrations are
 * applied first; then every table the schema declares (src/db/schema) is copied row by row in
 * insertion order, referenced tables before the tables that reference them, in one transaction,
 * and each table's count is checked against SQLite's before it commits. What is each engine's own
 * is not copied: FTS5 and vec0 (PostgreSQL's search structures fill in as chunks are inserted; the
 * vectors are made again by `courseforge reindex all`).
 */
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { migratePostgres } from "./postgres/migrate.ts";
import * as schema from "./schema/index.ts";

/** The vec0 tables' list: SQLite's own, PostgreSQL keeps its vector tables in the same table when it makes them. */
const ENGINE_OWN = new Set(["retrieval_vector_tables"]);
/** Rows per INSERT: PostgreSQL binds at most 65,535 parameters in one statement. */
const MAX_PARAMS = 30_000;

export class NotEmpty extends Error {}

export interface CopiedTable {
  table: string;
  rows: number;
}

export async function copyToPostgres(sqlite: Database, client: SQL): Promise<CopiedTable[]> {
  await migratePostgres(client);
  const tables = inDependencyOrder(sqlite);
  return client.begin(async (tx) => {
    const copied: CopiedTable[] = [];
    for (const t of tables) {
      const [{ n }] = await tx.unsafe(`SELECT count(*)::int AS n FROM ${t.name}`);
      if (n > 0) throw new NotEmpty(`the PostgreSQL database is not empty: ${t.name} has ${n} rows`);
    }
    for (const t of tables) copied.push({ table: t.name, rows: await copyTable(sqlite, tx, t) });
    if (tables.some((t) => t.name === "retrieval_chunks")) {
      await tx.unsafe(
        "SELECT setval(pg_get_serial_sequence('retrieval_chunks', 'seq'), coalesce((SELECT max(seq) FROM retrieval_chunks), 0) + 1, false)",
      );
    }
    return copied;
  });
}

interface Table {
  name: string;
  columns: string[];
  /** Columns referencing the table itself: rows without such a reference go first. */
  selfRefs: string[];
}

/** Every declared table, each after the tables it references. */
function inDependencyOrder(sqlite: Database): Table[] {
  const declared = (Object.values(schema) as unknown[])
    .filter((v): v is SQLiteTable => typeof v === "object" && v !== null && Symbol.for("drizzle:IsDrizzleTable") in v)
    .map((t) => getTableConfig(t))
    .filter((t) => !ENGINE_OWN.has(t.name));
  const refs = new Map(
    declared.map((t) => [
      t.name,
      sqlite.query<{ table: string; from: string }, []>(`PRAGMA foreign_key_list("${t.name}")`).all(),
    ]),
  );
  const ordered: Table[] = [];
  const placed = new Set<string>();
  while (ordered.length < declared.length) {
    const ready = declared.filter(
      (t) => !placed.has(t.name) && refs.get(t.name)!.every((r) => r.table === t.name || placed.has(r.table)),
    );
    if (ready.length === 0) throw new Error("the declared tables reference each other in a cycle");
    for (const t of ready) {
      placed.add(t.name);
      ordered.push({
        name: t.name,
        columns: t.columns.map((c) => c.name),
        selfRefs: refs
          .get(t.name)!
          .filter((r) => r.table === t.name)
          .map((r) => r.from),
      });
    }
  }
  return ordered;
}

async function copyTable(sqlite: Database, tx: SQL, t: Table): Promise<number> {
  const cols = t.columns.map((c) => `"${c}"`).join(", ");
  const order = [...t.selfRefs.map((c) => `"${c}" IS NOT NULL`), "rowid"].join(", ");
  const rows = sqlite.query<Record<string, unknown>, []>(`SELECT ${cols} FROM "${t.name}" ORDER BY ${order}`).all();
  const perInsert = Math.max(1, Math.floor(MAX_PARAMS / t.columns.length));
  for (let at = 0; at < rows.length; at += perInsert) {
    const batch = rows.slice(at, at + perInsert);
    const params: unknown[] = [];
    const values = batch.map((row) => {
      const marks = t.columns.map((c) => {
        params.push(row[c] ?? null);
        return `$${params.length}`;
      });
      return `(${marks.join(", ")})`;
    });
    await tx.unsafe(`INSERT INTO ${t.name} (${cols}) VALUES ${values.join(", ")}`, params);
  }
  const [{ n }] = await tx.unsafe(`SELECT count(*)::int AS n FROM ${t.name}`);
  if (n !== rows.length) throw new Error(`${t.name}: ${rows.length} rows in SQLite, ${n} copied`);
  return n;
}
