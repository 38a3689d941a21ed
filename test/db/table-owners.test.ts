/**
 * The data-access rule of the README's layout section: each table has one owner folder, and only the
 * owner's files name it in a query (raw SQL or an imported drizzle table). Pairs that break the rule
 * on purpose are listed here with their reason; a listed pair that no longer occurs fails too, so the
 * list never outgrows the code.
 */
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { openDb } from "../../src/db/index.ts";
import * as schema from "../../src/db/schema/index.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const ROOT = join(import.meta.dir, "../..");
const SRC = join(ROOT, "src");

/** file (relative to src) → tables it may name outside their owner, and why. */
const EXCEPTIONS: Record<string, { tables: string[]; reason: string }> = {
  "retrieval/search.ts": {
    tables: ["documents", "course_documents"],
    reason:
      "retrieval sits below documents and courses: the ranked query reads a hit's filename, skips documents still processing and widens a course scope to its documents in the same statement",
  },
  "retrieval/postgres-search.ts": {
    tables: ["documents", "course_documents"],
    reason:
      "PostgreSQL's ranked queries, as SQLite's in retrieval/search.ts: a hit's filename, readiness and a course scope's documents in the same statement",
  },
  "db/copy-to-postgres.ts": {
    tables: ["retrieval_chunks"],
    reason:
      "migrate-to-postgres copies chunks with their seq numbers, then moves PostgreSQL's identity past them so new chunks number after",
  },
  "retrieval/chunk-reads.ts": {
    tables: ["documents"],
    reason: "a chunk's filename and its document's readiness are read in the query that selects the chunks",
  },
  "retrieval/index-chunks.ts": {
    tables: ["documents"],
    reason: "retrieval sits below documents: it reads the space a document is indexed into",
  },
  "retrieval/index-job.ts": {
    tables: ["documents"],
    reason: "retrieval sits below documents: it reads the space a document is indexed into",
  },
  "tenants/users.ts": {
    tables: ["courses", "documents", "jobs", "usage_events"],
    reason:
      "a learner made by a failed request is deleted only while nothing refers to it, checked in the one DELETE so nothing can refer to it in between",
  },
  "ops/backup.ts": {
    tables: ["courses", "schema_migrations"],
    reason: "a backup is checked on its copy of the database: its migration version and its count of courses",
  },
  "documents/records.ts": {
    tables: ["course_documents"],
    reason:
      "documents sit below courses: records left processing at start-up, or by a node whose ingestion lease ran out, are failed except a course's sources (its resumed job ingests them), picked in one query",
  },
};

/** Every (table, owner folder) row of the README's table of owners. */
function readmeRows(): [string, string][] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  return [...readme.matchAll(/^\| `src\/([a-z-]+)\/` \| (.+) \|$/gm)].flatMap((m) =>
    [...m[2]!.matchAll(/`([a-z0-9_]+)`/g)].map((t): [string, string] => [t[1]!, m[1]!]),
  );
}

/** table → owner folder. */
const readmeOwners = () => new Map(readmeRows());

function* sourceFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (p !== join(SRC, "db", "migrations")) yield* sourceFiles(p);
    } else if (/\.tsx?$/.test(e.name)) yield p;
  }
}

/** SQL name of every drizzle table the schema exports, by its export name. */
const drizzleTables = new Map(
  Object.entries(schema).map(([name, t]) => [name, getTableConfig(t as SQLiteTable).name] as const),
);

/** The tables a file names: after a SQL keyword, or as a drizzle table imported from the schema. */
function tablesNamed(text: string, known: Set<string>): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE|EXISTS)\s+([a-z_][a-z0-9_]*)/g)) {
    if (known.has(m[1]!)) found.add(m[1]!);
  }
  for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"[./]*\/db\/schema\/[a-z-]+\.ts"/g)) {
    for (const name of m[1]!.split(",").map((n) => n.trim().replace(/^type\s+/, ""))) {
      const table = drizzleTables.get(name);
      if (table) found.add(table);
    }
  }
  return found;
}

const dir = tempDir("cf-owners-");
const opened = await openDb(dir);
afterAll(() => {
  opened.sqlite.close();
  cleanup(dir);
});

const migrated = opened.sqlite
  .query<{ name: string; sql: string }, []>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  )
  .all();
const virtualTables = migrated.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
/** The tables an FTS5 table keeps for itself (`retrieval_fts_data`, …) go with it. */
const tables = migrated
  .map((t) => t.name)
  .filter((name) => virtualTables.includes(name) || !virtualTables.some((v) => name.startsWith(`${v}_`)));

test("every table of the migrated database has exactly one owner in the README", () => {
  const rows = readmeRows();
  const twice = rows.filter(([t], i) => rows.findIndex(([u]) => u === t) !== i).map(([t]) => t);
  expect(twice).toEqual([]);
  const owners = new Map(rows);
  const unowned = tables.filter((t) => !owners.has(t));
  expect(unowned).toEqual([]);
  const gone = [...owners.keys()].filter((t) => !tables.includes(t));
  expect(gone).toEqual([]);
});

test("a table is named in a query only under its owner folder, or by a listed exception", () => {
  const owners = readmeOwners();
  const known = new Set(owners.keys());
  const stray: string[] = [];
  const used = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const rel = relative(SRC, file);
    const folder = rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : "";
    for (const table of tablesNamed(readFileSync(file, "utf8"), known)) {
      if (owners.get(table) === folder) continue;
      if (EXCEPTIONS[rel]?.tables.includes(table)) {
        used.set(rel, (used.get(rel) ?? new Set()).add(table));
        continue;
      }
      stray.push(`src/${rel} names ${table} (owner: src/${owners.get(table)}/)`);
    }
  }
  expect(stray).toEqual([]);
  // Every exception still happens: one that the code outgrew is removed from the list.
  const stale = Object.entries(EXCEPTIONS).flatMap(([rel, e]) =>
    e.tables.filter((t) => !used.get(rel)?.has(t)).map((t) => `src/${rel} ${t}`),
  );
  expect(stale).toEqual([]);
});

test("queries start with an upper-case keyword, as the scan reads them", () => {
  const lower = [...sourceFiles(SRC)].filter((f) =>
    /["`]\s*(?:select\s|insert\s+into\s|delete\s+from\s|update\s+\w+\s+set\s)/.test(readFileSync(f, "utf8")),
  );
  expect(lower.map((f) => relative(SRC, f))).toEqual([]);
});

test("the scan sees raw SQL and drizzle imports alike", () => {
  const known = new Set(["courses", "users"]);
  expect(tablesNamed("db.query(`SELECT id\n  FROM courses WHERE x`)", known)).toEqual(new Set(["courses"]));
  expect(tablesNamed('import { users } from "../db/schema/index.ts";', known)).toEqual(new Set(["users"]));
  expect(tablesNamed("// courses from users", known)).toEqual(new Set());
});
