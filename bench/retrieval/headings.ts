/**
 * Full text on both engines with a book's own section headings as queries: each HTML book of
 * ../shared/corpus/books is extracted and indexed on SQLite (FTS5's BM25) and on a throwaway
 * PostgreSQL cluster (test/helpers/postgres.ts: tsvector, BM25 from the term statistics), each
 * through its engine's write path; its first 150 section headings are asked as lexical searches.
 *
 *   bun bench/retrieval/headings.ts [--limit 150]
 *
 * Prints per half (the fixed document split of the house rules: DEV to tune on, TEST run only) how
 * often the top hit lies in the section the heading names, on each engine, and how often both
 * engines' top hit is the same chunk.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config.ts";
import { openDb } from "../../src/db/index.ts";
import { migratePostgres } from "../../src/db/postgres/migrate.ts";
import { postgresSql, type Sql, sql, sqliteSql } from "../../src/db/sql.ts";
import { detectFileKind } from "../../src/ingest/detect.ts";
import { runFileJob } from "../../src/ingest/extract-file.ts";
import { fileLimits } from "../../src/ingest/run-extraction.ts";
import { chunkDocument } from "../../src/retrieval/chunk.ts";
import { builtinEmbedder } from "../../src/retrieval/embedders/builtin.ts";
import { type Hit, indexDocument, search } from "../../src/retrieval/index.ts";
import { searchPostgres } from "../../src/retrieval/postgres-search.ts";
import { newId, nowIso } from "../../src/util.ts";
import { startPostgres } from "../../test/helpers/postgres.ts";
import { cleanup, tempDir } from "../../test/helpers/server.ts";

const ROOT = resolve(import.meta.dir, "../..");
const BOOKS = resolve(ROOT, "../shared/corpus/books");
const { values } = parseArgs({ args: process.argv.slice(2), options: { limit: { type: "string", default: "150" } } });
const limit = Number(values.limit);

const isDev = (file: string) =>
  parseInt(createHash("sha1").update(basename(file)).digest("hex").slice(0, 8), 16) % 2 === 0;

const embedder = builtinEmbedder();
const dir = tempDir("cf-bench-headings-");
const { sqlite } = await openDb(dir);
const lite = sqliteSql(sqlite);
const pg = await startPostgres();
await migratePostgres(pg.client);
const db = postgresSql(pg.client);

/** A tenant, learner and ready document on an engine, with the same ids on both. */
async function seed(e: Sql, tenantId: string, userId: string, documentId: string, filename: string) {
  await e.run(sql`INSERT INTO tenants (id, name, created_at) VALUES (${tenantId}, ${filename}, ${nowIso()})`);
  await e.run(
    sql`INSERT INTO users (id, tenant_id, external_id, created_at) VALUES (${userId}, ${tenantId}, ${userId}, ${nowIso()})`,
  );
  await e.run(
    sql`INSERT INTO documents (id, tenant_id, user_id, kind, filename, source_type, status, created_at)
        VALUES (${documentId}, ${tenantId}, ${userId}, 'index', ${filename}, 'file', 'ready', ${nowIso()})`,
  );
}

interface Book {
  file: string;
  owner: { tenantId: string; userId: string };
  headings: string[];
}

const books: Book[] = [];
const cfg = loadConfig({ DATA_DIR: dir });
try {
  for (const file of readdirSync(BOOKS).filter((f) => f.endsWith(".html"))) {
    const path = join(BOOKS, file);
    const { kind } = await detectFileKind(path, file);
    const extract = await runFileJob({ path, filename: file, kind, limits: fileLimits(cfg) });
    const owner = { tenantId: newId(), userId: newId() };
    const documentId = newId();
    for (const e of [lite, db]) {
      await seed(e, owner.tenantId, owner.userId, documentId, file);
      await indexDocument({ sql: e, embedder }, { ...owner, documentId, spaceId: null, extract });
    }
    const headings = [
      ...new Set(
        chunkDocument(extract)
          .map((c) => c.headingPath.at(-1))
          .filter((h): h is string => !!h && h !== extract.title),
      ),
    ].slice(0, limit);
    books.push({ file, owner, headings });
  }

  const inSection = (hit: Hit | undefined, heading: string) => !!hit?.headingPath.includes(heading);
  const rows: string[] = [];
  for (const half of ["dev", "test"] as const) {
    const mine = books.filter((b) => isDev(b.file) === (half === "dev"));
    let n = 0;
    let onSqlite = 0;
    let onPostgres = 0;
    let same = 0;
    for (const b of mine) {
      for (const heading of b.headings) {
        const input = { ...b.owner, scope: {}, query: heading, topK: 1, mode: "lexical" as const };
        const [a] = await search({ sql: lite, embedder }, input);
        const [p] = await searchPostgres({ db, embedder, vectors: false }, input);
        n++;
        if (inSection(a, heading)) onSqlite++;
        if (inSection(p, heading)) onPostgres++;
        if (a && p && a.documentId === p.documentId && a.position === p.position) same++;
      }
    }
    const pct = (x: number) => `${n > 0 ? Math.round((100 * x) / n) : 0}%`;
    rows.push(
      `| ${half} (${mine.map((b) => b.file).join(", ")}; ${n} headings) | ${pct(onSqlite)} | ${pct(onPostgres)} | ${pct(same)} |`,
    );
  }
  console.log("| half (HTML books) | SQLite FTS5 | PostgreSQL | same top chunk |");
  console.log("| --- | --- | --- | --- |");
  for (const r of rows) console.log(r);
} finally {
  sqlite.close();
  cleanup(dir);
  await pg.stop();
}
