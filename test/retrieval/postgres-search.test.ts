/**
 * Search on PostgreSQL (a throwaway cluster, Debian's PostgreSQL without pgvector) against search on
 * SQLite over the same corpus: documents indexed on SQLite by the real indexing path, their rows
 * copied to PostgreSQL, where the generated tsvector indexes them. Keyword queries must find the
 * same top chunk on both; tenants, scope and readiness filter as on SQLite; and with no pgvector
 * the server says so once and ranks by full text alone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SQL } from "bun";
import { type OpenedDb, openDb } from "../../src/db/index.ts";
import { migratePostgres } from "../../src/db/postgres/migrate.ts";
import { postgresSql, raw, type Sql, sql, sqliteSql } from "../../src/db/sql.ts";
import { createDocumentRecord, markDocumentReady } from "../../src/documents/records.ts";
import { resultOfMarkdown } from "../../src/ingest/result.ts";
import type { Logger } from "../../src/log.ts";
import { builtinEmbedder } from "../../src/retrieval/embedders/builtin.ts";
import { indexDocument, type RetrievalDeps, search } from "../../src/retrieval/index.ts";
import { embeddingInput } from "../../src/retrieval/index-chunks.ts";
import { searchPostgres } from "../../src/retrieval/postgres-search.ts";
import {
  announceVectorSupport,
  ensurePostgresVectorTable,
  hasPgvector,
  writePostgresVectors,
} from "../../src/retrieval/postgres-vector-tables.ts";
import type { SearchInput } from "../../src/retrieval/search.ts";
import { ensureTenant } from "../../src/tenants/keys.ts";
import { newId, nowIso } from "../../src/util.ts";
import { startPglite } from "../helpers/pglite.ts";
import { startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const embedder = builtinEmbedder();
let dir: string;
let opened: OpenedDb;
let lite: RetrievalDeps;
let pg: TestPostgres;
let db: Sql;
let withVectors: TestPostgres | undefined;

/** A small corpus of distinct subjects, so each keyword query has one right chunk. */
const CORPUS = [
  "Glaciers carve U-shaped valleys as the ice grinds the bedrock beneath it over thousands of years.",
  "Rivers cut V-shaped valleys; their meanders widen the floodplain and leave oxbow lakes behind.",
  "Photosynthesis turns light, water and carbon dioxide into glucose inside the chloroplasts of a leaf.",
  "Mitochondria produce most of a cell's ATP through oxidative phosphorylation across their inner membrane.",
  "A binary search halves the sorted interval at each step, finding an element in logarithmic time.",
  "Quicksort partitions an array around a pivot and sorts both sides recursively, quadratic at worst.",
  "The Treaty of Westphalia in 1648 ended the Thirty Years' War and shaped the sovereignty of states.",
  "Volcanic eruptions release magma, ash and sulfur dioxide; basalt forms where lava cools quickly.",
];

interface Owner {
  tenantId: string;
  userId: string | null;
}

async function newOwner(name: string): Promise<Owner> {
  const { id: tenantId } = await ensureTenant(sqliteSql(opened.sqlite), name);
  const userId = newId();
  opened.sqlite.run("INSERT INTO users (id, tenant_id, external_id, created_at) VALUES (?, ?, ?, ?)", [
    userId,
    tenantId,
    userId,
    nowIso(),
  ]);
  return { tenantId, userId };
}

async function addDoc(owner: Owner, markdown: string, ready = true): Promise<string> {
  const id = await createDocumentRecord(sqliteSql(lite.sqlite), owner, {
    filename: `${newId()}.md`,
    sourceType: "file",
    spaceId: null,
  });
  const { chunkCount } = await indexDocument(lite, {
    ...owner,
    documentId: id,
    extract: resultOfMarkdown(markdown, { title: null }),
  });
  if (ready) {
    await markDocumentReady(sqliteSql(lite.sqlite), id, {
      blobKey: null,
      mimeType: "text/markdown",
      pages: 1,
      markdown,
      title: null,
      chunkCount,
    });
  }
  return id;
}

/** Copies a table's rows from SQLite to PostgreSQL, every column but those PostgreSQL generates. */
async function copyTable(db: Sql, table: string, skip: string[] = []): Promise<void> {
  const rows = opened.sqlite.query<Record<string, unknown>, []>(`SELECT * FROM ${table}`).all();
  for (const row of rows) {
    const columns = Object.keys(row).filter((c) => !skip.includes(c));
    const values = columns.map((c) => sql`${row[c]}`).reduce((a, b) => sql`${a}, ${b}`);
    await db.run(sql`INSERT INTO ${raw(table)} (${raw(columns.join(", "))}) VALUES (${values})`);
  }
}

/** The SQLite corpus on a PostgreSQL database: the tsvector is generated as the rows go in. */
async function copyCorpus(db: Sql): Promise<void> {
  await copyTable(db, "tenants", ["rowid"]);
  await copyTable(db, "users", ["rowid"]);
  await copyTable(db, "documents", ["rowid"]);
  await copyTable(db, "retrieval_chunks", ["seq"]);
}

let alice: Owner;
let bob: Owner;
let pending: string;
const warnings: string[] = [];
const log: Logger = {
  debug() {},
  info() {},
  warn: (msg) => warnings.push(msg),
  error() {},
  access() {},
};
let vectors: boolean;

beforeAll(async () => {
  dir = tempDir("cf-pg-search-");
  opened = await openDb(dir);
  lite = { sqlite: opened.sqlite, embedder };
  pg = await startPostgres();
  await migratePostgres(pg.client as SQL);
  db = postgresSql(pg.client);
  alice = await newOwner("alice-co");
  bob = await newOwner("bob-co");
  for (const text of CORPUS) await addDoc(alice, text);
  await addDoc(bob, "Glaciers and moraines: the zyxquark survey of alpine ice, valleys and bedrock.");
  pending = await addDoc(alice, "Glaciers are still being indexed in this zyxquark upload.", false);
  await copyCorpus(db);
  vectors = await announceVectorSupport(db, log);
}, 120_000);

afterAll(async () => {
  opened.sqlite.close();
  cleanup(dir);
  await pg.stop();
  await withVectors?.stop();
});

const ask = (owner: Owner, query: string, extra: Partial<SearchInput> = {}): SearchInput => ({
  ...owner,
  scope: {},
  query,
  topK: 3,
  ...extra,
});

const onPostgres = (input: SearchInput) => searchPostgres({ db, embedder, vectors }, input);

describe("full text on PostgreSQL and SQLite", () => {
  const queries: [string, number][] = [
    ["how do glaciers carve valleys", 0],
    ["oxbow lakes on a floodplain", 1],
    ["chloroplasts glucose", 2],
    ["ATP from mitochondria", 3],
    ["logarithmic binary search", 4],
    ["quicksort pivot partition", 5],
    ["Westphalia treaty 1648", 6],
    ["basalt lava magma", 7],
  ];

  test.each(queries)("%p: the same top chunk on both engines, the one about it", async (query, expected) => {
    const onSqlite = await search(lite, ask(alice, query, { mode: "lexical" }));
    const onPg = await onPostgres(ask(alice, query, { mode: "lexical" }));
    expect(onPg[0]?.text).toBe(CORPUS[expected]!);
    expect(onPg[0]?.chunkId).toBe(onSqlite[0]!.chunkId);
  });

  test("a chunk's hit carries the same fields on both engines", async () => {
    const [a] = await search(lite, ask(alice, "Westphalia treaty", { mode: "lexical" }));
    const [b] = await onPostgres(ask(alice, "Westphalia treaty", { mode: "lexical" }));
    expect(b).toEqual(a!);
  });

  test("a query of only unknown words finds nothing, and operators typed by the user are no error", async () => {
    expect(await onPostgres(ask(alice, "qwertyuiop"))).toEqual([]);
    const hits = await onPostgres(ask(alice, 'glaciers "valleys -(ice & | !'));
    expect(hits[0]?.text).toBe(CORPUS[0]!);
  });
});

describe("filters as on SQLite", () => {
  test("a tenant sees only its own chunks, learner or not", async () => {
    const forBob = await onPostgres(ask(bob, "zyxquark glaciers"));
    expect(forBob.map((h) => h.text)).toEqual([expect.stringContaining("zyxquark survey")]);
    const forAlice = await onPostgres(ask({ tenantId: alice.tenantId, userId: null }, "zyxquark moraines alpine"));
    expect(forAlice.some((h) => h.text.includes("zyxquark"))).toBe(false);
  });

  test("a document still being indexed is not searched", async () => {
    const hits = await onPostgres(ask(alice, "zyxquark indexed upload", { topK: 10 }));
    expect(hits.some((h) => h.documentId === pending)).toBe(false);
  });

  test("a document scope keeps to its documents", async () => {
    const [volcano] = await onPostgres(ask(alice, "basalt lava"));
    const hits = await onPostgres(
      ask(alice, "glaciers valleys basalt", { scope: { documentIds: [volcano!.documentId!] }, topK: 10 }),
    );
    expect(hits.map((h) => h.documentId)).toEqual([volcano!.documentId]);
  });

  test("a role filter keeps to those roles", async () => {
    expect(await onPostgres(ask(alice, "glaciers valleys", { roles: ["references"] }))).toEqual([]);
    expect((await onPostgres(ask(alice, "glaciers valleys", { roles: ["body"] })))[0]?.text).toBe(CORPUS[0]!);
  });
});

describe("without pgvector", () => {
  test("the cluster has no pgvector, and the server says so once", async () => {
    expect(await hasPgvector(db)).toBe(false);
    expect(vectors).toBe(false);
    expect(warnings).toEqual([expect.stringContaining("no pgvector")]);
  });

  test("a hybrid search answers by full text alone, each hit scored by cosine similarity", async () => {
    const hybrid = await onPostgres(ask(alice, "glaciers carve valleys"));
    const lexical = await onPostgres(ask(alice, "glaciers carve valleys", { mode: "lexical" }));
    expect(hybrid.map((h) => h.chunkId)).toEqual(lexical.map((h) => h.chunkId));
    expect(hybrid[0]!.score).toBeGreaterThan(0);
    expect(await onPostgres(ask(alice, "glaciers carve valleys", { mode: "vector" }))).toEqual([]);
  });
});

/**
 * The vector statements on PGlite with pgvector (over its socket server, through the server's own
 * adapter): chunks embedded as SQLite's indexing embeds them, the same nearest chunk on both engines.
 */
describe("with pgvector (PGlite)", () => {
  let vdb: Sql;
  const withPgvector = (input: SearchInput) => searchPostgres({ db: vdb, embedder, vectors: true }, input);

  beforeAll(async () => {
    withVectors = await startPglite();
    vdb = postgresSql(withVectors.client);
    await copyCorpus(vdb);
    const table = await ensurePostgresVectorTable(vdb, { embedder: embedder.id, dimension: embedder.dimension });
    const chunks = await vdb.all<{ seq: number; context: string; text: string }>(
      sql`SELECT seq, context, text FROM retrieval_chunks ORDER BY seq`,
    );
    const embedded = await embedder.embed(chunks.map((c) => embeddingInput(c.context, c.text)));
    await writePostgresVectors(
      vdb,
      table,
      chunks.map((c, i) => ({ seq: c.seq, vector: embedded[i]! })),
    );
  }, 600_000);

  test("the server has pgvector, and a vector space gets its table under an HNSW cosine index", async () => {
    expect(await hasPgvector(vdb)).toBe(true);
    const indexes = await vdb.all<{ indexdef: string }>(
      sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'retrieval_vec_1' AND indexdef LIKE '%hnsw%'`,
    );
    expect(indexes.map((i) => i.indexdef)).toEqual([expect.stringContaining("vector_cosine_ops")]);
    const again = await ensurePostgresVectorTable(vdb, { embedder: embedder.id, dimension: embedder.dimension });
    expect(again).toBe("retrieval_vec_1");
  });

  test.each(["how do glaciers carve valleys", "sorting an array around a pivot", "cells making ATP"])(
    "%p: the same nearest chunk by vectors on both engines, scored by its cosine similarity",
    async (query) => {
      const onSqlite = await search(lite, ask(alice, query, { mode: "vector" }));
      const onPg = await withPgvector(ask(alice, query, { mode: "vector" }));
      expect(onPg[0]?.chunkId).toBe(onSqlite[0]!.chunkId);
      expect(onPg[0]!.score).toBeCloseTo(onSqlite[0]!.score, 4);
    },
  );

  test("hybrid search fuses both rankings as on SQLite", async () => {
    const query = "glaciers grinding bedrock into valleys";
    const onSqlite = await search(lite, ask(alice, query));
    const onPg = await withPgvector(ask(alice, query));
    expect(onPg.map((h) => h.chunkId)).toEqual(onSqlite.map((h) => h.chunkId));
  });

  test("another tenant's vectors are never candidates", async () => {
    const hits = await withPgvector(
      ask({ tenantId: alice.tenantId, userId: null }, "zyxquark survey of alpine ice", { mode: "vector", topK: 20 }),
    );
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.some((h) => h.text.includes("zyxquark"))).toBe(false);
  });
});
