/**
 * Retrieval on PostgreSQL against retrieval on SQLite over the same corpus, each indexed through its
 * own engine by the same write path (`indexDocument` on the engine's seam): a throwaway cluster
 * (Debian's PostgreSQL, no pgvector) for full text, PGlite with pgvector for vectors. Keyword
 * queries must find the same top chunk on both, ranked by BM25 on both; the term statistics BM25
 * reads follow every insert and delete; tenants, scope and readiness filter as on SQLite; and with
 * no pgvector the server says so once and ranks by full text alone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type OpenedDb, openDb } from "../../src/db/index.ts";
import { migratePostgres } from "../../src/db/postgres/migrate.ts";
import { postgresSql, raw, type Sql, sql, sqliteSql } from "../../src/db/sql.ts";
import { resultOfMarkdown } from "../../src/ingest/result.ts";
import type { Logger } from "../../src/log.ts";
import { deleteChunksOf } from "../../src/retrieval/chunk-writes.ts";
import { builtinEmbedder } from "../../src/retrieval/embedders/builtin.ts";
import { type Hit, indexDocument, search } from "../../src/retrieval/index.ts";
import { announceVectorSupport, hasPgvector } from "../../src/retrieval/postgres-vector-tables.ts";
import { reindexAll, staleChunkCount } from "../../src/retrieval/reindex.ts";
import type { SearchInput } from "../../src/retrieval/search-input.ts";
import { newId, nowIso } from "../../src/util.ts";
import { startPglite } from "../helpers/pglite.ts";
import { startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const embedder = builtinEmbedder();
let dir: string;
let opened: OpenedDb;
let lite: Sql;
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
/** A common word said again and again: BM25 must not let it outweigh a rare one. */
const RIVER_TALK = [
  "River barges carried grain down the river to the river port.",
  "A river delta splits the river into channels near the sea.",
];

interface Owner {
  tenantId: string;
  userId: string | null;
}

/** A tenant and its learner, with the same ids on every engine. */
async function seedOwner(
  engines: Sql[],
  name: string,
  owner: Owner = { tenantId: newId(), userId: newId() },
): Promise<Owner> {
  for (const e of engines) {
    await e.run(sql`INSERT INTO tenants (id, name, created_at) VALUES (${owner.tenantId}, ${name}, ${nowIso()})`);
    await e.run(
      sql`INSERT INTO users (id, tenant_id, external_id, created_at)
          VALUES (${owner.userId}, ${owner.tenantId}, ${owner.userId}, ${nowIso()})`,
    );
  }
  return owner;
}

/** A document record with the same id on every engine (the owner's create makes its own) and its chunks, indexed on the engine. */
async function addDocOn(e: Sql, owner: Owner, id: string, markdown: string, ready: boolean): Promise<void> {
  await e.run(
    sql`INSERT INTO documents (id, tenant_id, user_id, kind, filename, source_type, status, created_at)
        VALUES (${id}, ${owner.tenantId}, ${owner.userId}, 'index', ${`${id}.md`}, 'file', 'processing', ${nowIso()})`,
  );
  await indexDocument(
    { sql: e, embedder },
    { ...owner, documentId: id, spaceId: null, extract: resultOfMarkdown(markdown, { title: null }) },
  );
  if (ready) await e.run(sql`UPDATE documents SET status = 'ready' WHERE id = ${id}`);
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

/** The corpus on the given engines (for alice and bob, made unless given): each indexed by its engine. */
async function seedCorpus(engines: Sql[], owners?: { alice: Owner; bob: Owner }): Promise<void> {
  alice = await seedOwner(engines, "alice-co", owners?.alice);
  bob = await seedOwner(engines, "bob-co", owners?.bob);
  const docs: [Owner, string, boolean][] = [
    ...[...CORPUS, ...RIVER_TALK].map((t): [Owner, string, boolean] => [alice, t, true]),
    [bob, "Glaciers and moraines: the zyxquark survey of alpine ice, valleys and bedrock.", true],
    [alice, "Glaciers are still being indexed in this zyxquark upload.", false],
  ];
  for (const [owner, text, ready] of docs) {
    const id = newId();
    if (!ready) pending = id;
    for (const e of engines) await addDocOn(e, owner, id, text, ready);
  }
}

beforeAll(async () => {
  dir = tempDir("cf-pg-search-");
  opened = await openDb(dir);
  lite = sqliteSql(opened.sqlite);
  pg = await startPostgres();
  await migratePostgres(pg.client);
  db = postgresSql(pg.client);
  await seedCorpus([lite, db]);
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

const onSqlite = (input: SearchInput) => search({ sql: lite, embedder }, input);
/** Through retrieval's one entry, which hands a PostgreSQL seam's search to postgres-search.ts. */
const onPostgres = (input: SearchInput) => search({ sql: db, embedder }, input);
/** A hit but for its chunk id, which each engine's index made for itself. */
const sameChunk = ({ chunkId: _, ...hit }: Hit) => hit;

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
    const [a] = await onSqlite(ask(alice, query, { mode: "lexical" }));
    const [b] = await onPostgres(ask(alice, query, { mode: "lexical" }));
    expect(b?.text).toBe(CORPUS[expected]!);
    expect(b?.documentId).toBe(a!.documentId);
  });

  test("a rare word outweighs a common one said many times (BM25's IDF), as on SQLite", async () => {
    const query = "river Westphalia";
    const [a] = await onSqlite(ask(alice, query, { mode: "lexical" }));
    const [b] = await onPostgres(ask(alice, query, { mode: "lexical" }));
    expect(a?.text).toBe(CORPUS[6]!);
    expect(b?.text).toBe(CORPUS[6]!);
  });

  test("the same chunks in the same order on both engines", async () => {
    for (const query of ["river valleys", "glaciers ice bedrock", "dioxide"]) {
      const a = await onSqlite(ask(alice, query, { mode: "lexical", topK: 5 }));
      const b = await onPostgres(ask(alice, query, { mode: "lexical", topK: 5 }));
      expect(b.map((h) => h.text)).toEqual(a.map((h) => h.text));
    }
  });

  test("a chunk's hit carries the same fields on both engines", async () => {
    const [a] = await onSqlite(ask(alice, "Westphalia treaty", { mode: "lexical" }));
    const [b] = await onPostgres(ask(alice, "Westphalia treaty", { mode: "lexical" }));
    expect(sameChunk(b!)).toEqual(sameChunk(a!));
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

/** The term statistics as the triggers keep them, and as recounted from every chunk's tsvector. */
async function termStatistics(e: Sql) {
  const kept = await e.all<{ term: string; n: number }>(
    sql`SELECT term, chunks AS n FROM retrieval_terms ORDER BY term`,
  );
  const recounted = await e.all<{ term: string; n: number }>(
    sql`SELECT word AS term, ndoc AS n FROM ts_stat('SELECT search FROM retrieval_chunks') ORDER BY word`,
  );
  const totals = await e.get<{ chunks: number; tokens: number }>(
    sql`SELECT CAST(chunks AS INTEGER) AS chunks, CAST(tokens AS INTEGER) AS tokens FROM retrieval_term_totals`,
  );
  const counted = await e.get<{ chunks: number; tokens: number }>(
    sql`SELECT CAST(count(*) AS INTEGER) AS chunks, CAST(coalesce(sum(search_length), 0) AS INTEGER) AS tokens
          FROM retrieval_chunks`,
  );
  return { kept, recounted, totals, counted };
}

describe("the write path on PostgreSQL", () => {
  test("the term statistics follow indexing, re-indexing, a delete and a cascade", async () => {
    const check = async () => {
      const s = await termStatistics(db);
      expect(s.kept).toEqual(s.recounted);
      expect(s.totals).toEqual(s.counted!);
      return s;
    };
    const before = await check();
    expect(before.totals!.chunks).toBeGreaterThan(0);
    const owner = await seedOwner([db], "stats-co");
    const id = newId();
    await addDocOn(db, owner, id, "# Krill\n\nKrill swarms feed baleen whales in the Southern Ocean.", true);
    expect((await check()).kept).toContainEqual({ term: "krill", n: 1 });
    // Re-indexing replaces the document's chunks: counted once, not twice.
    await indexDocument(
      { sql: db, embedder },
      { ...owner, documentId: id, spaceId: null, extract: resultOfMarkdown("Krill and copepods.", { title: null }) },
    );
    expect((await check()).kept).toContainEqual({ term: "krill", n: 1 });
    expect(await deleteChunksOf(db, { documentId: id, chapterId: null })).toBe(1);
    expect((await check()).kept.some((t) => t.term === "krill")).toBe(false);
    await addDocOn(db, owner, newId(), "Krill again, in a second document.", true);
    await db.run(sql`DELETE FROM tenants WHERE id = ${owner.tenantId}`);
    expect(await check()).toEqual(before);
  });
});

describe("without pgvector", () => {
  test("the cluster has no pgvector, and the server says so once", async () => {
    expect(await hasPgvector(db)).toBe(false);
    expect(vectors).toBe(false);
    expect(warnings).toEqual([expect.stringContaining("no pgvector")]);
  });

  test("chunks are indexed with no vector table, and a hybrid search answers by full text alone", async () => {
    expect(await db.all(sql`SELECT table_name FROM retrieval_vector_tables`)).toEqual([]);
    const hybrid = await onPostgres(ask(alice, "glaciers carve valleys"));
    const lexical = await onPostgres(ask(alice, "glaciers carve valleys", { mode: "lexical" }));
    expect(hybrid.map((h) => h.chunkId)).toEqual(lexical.map((h) => h.chunkId));
    expect(hybrid[0]!.score).toBeGreaterThan(0);
    expect(await onPostgres(ask(alice, "glaciers carve valleys", { mode: "vector" }))).toEqual([]);
  });
});

/**
 * The vector statements on PGlite with pgvector (over its socket server, through the server's own
 * adapter): the corpus indexed there by the same write path, vectors and all; the same nearest
 * chunk as SQLite's.
 */
describe("with pgvector (PGlite)", () => {
  let vdb: Sql;
  const withPgvector = (input: SearchInput) => search({ sql: vdb, embedder }, input);
  const count = async (q: ReturnType<typeof sql>) => (await vdb.get<{ n: number }>(q))!.n;

  beforeAll(async () => {
    withVectors = await startPglite();
    vdb = postgresSql(withVectors.client);
    // The same tenants as on SQLite, so SQLite's index (and its statistics) answers for them alone.
    await seedCorpus([vdb], { alice, bob });
  }, 600_000);

  test("indexing writes every chunk's vector into its space's table, under an HNSW cosine index", async () => {
    expect(await hasPgvector(vdb)).toBe(true);
    const [space] = await vdb.all<{ table_name: string }>(sql`SELECT table_name FROM retrieval_vector_tables`);
    expect(space?.table_name).toBe("retrieval_vec_1");
    const indexes = await vdb.all<{ indexdef: string }>(
      sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'retrieval_vec_1' AND indexdef LIKE '%hnsw%'`,
    );
    expect(indexes.map((i) => i.indexdef)).toEqual([expect.stringContaining("vector_cosine_ops")]);
    const chunks = await count(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM retrieval_chunks`);
    expect(await count(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM retrieval_vec_1`)).toBe(chunks);
  });

  test.each(["how do glaciers carve valleys", "sorting an array around a pivot", "cells making ATP"])(
    "%p: the same nearest chunk by vectors on both engines, scored by its cosine similarity",
    async (query) => {
      const [a] = await onSqlite(ask(alice, query, { mode: "vector" }));
      const [b] = await withPgvector(ask(alice, query, { mode: "vector" }));
      expect(b?.text).toBe(a!.text);
      expect(b!.score).toBeCloseTo(a!.score, 4);
    },
  );

  test("hybrid search fuses both rankings as on SQLite", async () => {
    const query = "glaciers grinding bedrock into valleys";
    const a = await onSqlite(ask(alice, query));
    const b = await withPgvector(ask(alice, query));
    expect(b.map((h) => h.text)).toEqual(a.map((h) => h.text));
  });

  test("another tenant's vectors are never candidates", async () => {
    const hits = await withPgvector(
      ask({ tenantId: alice.tenantId, userId: null }, "zyxquark survey of alpine ice", { mode: "vector", topK: 20 }),
    );
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.some((h) => h.text.includes("zyxquark"))).toBe(false);
  });

  test("a document's delete takes its vectors along", async () => {
    const [volcano] = await withPgvector(ask(alice, "basalt lava", { mode: "lexical" }));
    const before = await count(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM retrieval_vec_1`);
    await vdb.run(sql`DELETE FROM documents WHERE id = ${volcano!.documentId}`);
    expect(await count(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM retrieval_vec_1`)).toBe(before - 1);
    expect((await withPgvector(ask(alice, "basalt lava magma", { mode: "vector" })))[0]?.text).not.toBe(CORPUS[7]);
  });

  test("re-embedding with another embedder moves every vector to the new space's table", async () => {
    const next = { sql: vdb, embedder: builtinEmbedder(128, "test") };
    const stale = await staleChunkCount(next);
    expect(stale).toBe(await count(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM retrieval_chunks`));
    expect(await reindexAll(next, { batchSize: 5 })).toEqual({ done: stale, total: stale });
    expect(await staleChunkCount(next)).toBe(0);
    const table = (await vdb.get<{ table_name: string }>(
      sql`SELECT table_name FROM retrieval_vector_tables WHERE dimension = 128`,
    ))!.table_name;
    expect(await count(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM ${raw(table)}`)).toBe(stale);
    expect(await count(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM retrieval_vec_1`)).toBe(0);
  });
});
