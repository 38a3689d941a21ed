/**
 * Retrieval benchmark on BEIR SciFact, through the server's own chunking, indexing and search.
 *
 *   bun bench/retrieval/run.ts [--engine sqlite|postgres|both] [--corpus DIR] [--qrels PATH]
 *                              [--embedders builtin,transformers,ollama] [--queries N] [--tune]
 *                              [--sizes 10000,100000] [--no-latency]
 *
 * The judged queries are split in two by id parity: the fusion is tuned on the tune half (even ids)
 * and judged on the held-out half (odd ids), so a weight fitted to noise shows up as a held-out loss.
 * Prints nDCG@10 and recall@10 of BM25 alone, vector alone and hybrid on each half for each available
 * embedder (transformers when a model is in MODELS_DIR/embeddings, ollama when OLLAMA_HOST answers
 * with EMBEDDING_MODEL), then p50/p95 search latency at each size in --sizes (synthetic chunks made
 * from shuffled corpus sentences fill the index up to that size). --tune grid-searches the fusion on
 * the tune half only and picks a setting by the one-standard-error rule (see tune()); tune only on
 * train judgments (the default), never on test. --queries N keeps the first N judged queries.
 * --engine indexes the corpus on SQLite (FTS5, vec0), on PostgreSQL (PGlite with pgvector over its
 * socket server, test/helpers/pglite.ts: tsvector with BM25, pgvector HNSW), or on both, each
 * through its engine's write path, and prints their figures side by side; the fusion grid and the
 * latency sizes run on SQLite (filling PGlite, one WebAssembly thread, to 100,000 chunks takes hours).
 */

import type { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config.ts";
import { openDb } from "../../src/db/index.ts";
import { postgresSql, type Sql, sql, sqliteSql } from "../../src/db/sql.ts";
import { createDocumentRecord, markDocumentReady } from "../../src/documents/records.ts";
import { resultOfMarkdown } from "../../src/ingest/result.ts";
import type { ExtractResult } from "../../src/ingest/types.ts";
import { builtinEmbedder } from "../../src/retrieval/embedders/builtin.ts";
import { DEFAULT_OLLAMA_EMBEDDING_MODEL } from "../../src/retrieval/embedders/create.ts";
import { ollamaEmbedder } from "../../src/retrieval/embedders/ollama.ts";
import { findModel, inspectModel, transformersEmbedder } from "../../src/retrieval/embedders/transformers.ts";
import type { Embedder } from "../../src/retrieval/embedders/types.ts";
import { DEFAULT_FUSION, type FusionParams, fuse } from "../../src/retrieval/fusion.ts";
import { type Hit, indexDocument, search } from "../../src/retrieval/index.ts";
import { searchPostgres } from "../../src/retrieval/postgres-search.ts";
import { hasPgvector } from "../../src/retrieval/postgres-vector-tables.ts";
import { type Rankings, rankings } from "../../src/retrieval/search.ts";
import type { SearchInput } from "../../src/retrieval/search-input.ts";
import { ensureTenant } from "../../src/tenants/keys.ts";
import { newId, nowIso } from "../../src/util.ts";
import { startPglite } from "../../test/helpers/pglite.ts";

const ROOT = resolve(import.meta.dir, "../..");
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    engine: { type: "string", default: "sqlite" },
    corpus: { type: "string", default: resolve(ROOT, "../shared/corpus/qa/scifact") },
    qrels: { type: "string" },
    embedders: { type: "string" },
    queries: { type: "string" },
    tune: { type: "boolean", default: false },
    sizes: { type: "string", default: "10000,100000" },
    "no-latency": { type: "boolean", default: false },
  },
});
type Engine = "sqlite" | "postgres";
const engines: Engine[] =
  values.engine === "both" ? ["sqlite", "postgres"] : values.engine === "postgres" ? ["postgres"] : ["sqlite"];
if (!["sqlite", "postgres", "both"].includes(values.engine!))
  throw new Error(`--engine sqlite|postgres|both, got ${values.engine}`);
const corpusDir = values.corpus!;
const qrelsPath = values.qrels ?? join(corpusDir, "qrels", "train.tsv");

interface CorpusDoc {
  _id: string;
  title: string;
  text: string;
}

const readJsonl = async <T>(path: string): Promise<T[]> =>
  (await Bun.file(path).text())
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

/** BEIR qrels TSV: query-id, corpus-id, score, with a header line. */
async function readQrels(path: string): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  const lines = (await Bun.file(path).text()).split(/\r?\n/).filter((l) => l.trim());
  for (const line of lines) {
    const [q, d, s] = line.split("\t");
    if (!q || !d || s === undefined || !/^-?\d+$/.test(s.trim())) continue;
    const m = out.get(q) ?? new Map<string, number>();
    out.set(q, m);
    m.set(d, Number(s));
  }
  return out;
}

const corpus = await readJsonl<CorpusDoc>(join(corpusDir, "corpus.jsonl"));
const queries = new Map(
  (await readJsonl<{ _id: string; text: string }>(join(corpusDir, "queries.jsonl"))).map((q) => [q._id, q.text]),
);
const allQrels = await readQrels(qrelsPath);
const evalQueries = [...allQrels.keys()]
  .filter((q) => queries.has(q))
  .slice(0, values.queries ? Number(values.queries) : undefined);
// The last character's code has the digit's parity and splits non-numeric ids too.
const isTuneQuery = (q: string) => q.charCodeAt(q.length - 1) % 2 === 0;
const tuneQueries = evalQueries.filter(isTuneQuery);
const heldOutQueries = evalQueries.filter((q) => !isTuneQuery(q));
console.log(`SciFact: ${corpus.length} documents, ${evalQueries.length} judged queries from ${qrelsPath}`);
console.log(
  `  tune half: ${tuneQueries.length} queries (even ids); held-out half: ${heldOutQueries.length} queries (odd ids)`,
);

const extractOf = (d: { title: string; text: string }): ExtractResult =>
  resultOfMarkdown(`# ${d.title}\n\n${d.text}`, { title: d.title });

interface Bench {
  engine: Engine;
  sql: Sql;
  /** SQLite's connection, for the fusion grid's rankings and the latency run. */
  sqlite: Database | null;
  embedder: Embedder;
  search(input: SearchInput): Promise<Hit[]>;
  tenantId: string;
  userId: string;
  chunks: number;
  close(): Promise<void>;
}

async function openEngine(engine: Engine, embedder: Embedder): Promise<Omit<Bench, "tenantId" | "userId" | "chunks">> {
  if (engine === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "cf-bench-retrieval-"));
    const { sqlite } = await openDb(dir);
    return {
      engine,
      sql: sqliteSql(sqlite),
      sqlite,
      embedder,
      search: (input) => search({ sql: sqliteSql(sqlite), embedder }, input),
      close: async () => {
        sqlite.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const pg = await startPglite();
  const db = postgresSql(pg.client);
  const vectors = await hasPgvector(db);
  return {
    engine,
    sql: db,
    sqlite: null,
    embedder,
    search: (input) => searchPostgres({ db, embedder, vectors }, input),
    close: () => pg.stop(),
  };
}

async function indexCorpus(engine: Engine, embedder: Embedder): Promise<Bench> {
  const opened = await openEngine(engine, embedder);
  const { id: tenantId } = await ensureTenant(opened.sql, "bench");
  const userId = newId();
  await opened.sql.run(
    sql`INSERT INTO users (id, tenant_id, external_id, created_at) VALUES (${userId}, ${tenantId}, 'bench', ${nowIso()})`,
  );
  const b: Bench = { ...opened, tenantId, userId, chunks: 0 };
  const started = performance.now();
  for (const d of corpus) b.chunks += await addDocument(b, d._id, extractOf(d));
  console.log(
    `  ${engine}: indexed ${corpus.length} documents as ${b.chunks} chunks in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return b;
}

/** A document record and its chunks, through their owners on the bench's engine. */
async function addDocument(b: Bench, filename: string, extract: ExtractResult): Promise<number> {
  const owner = { tenantId: b.tenantId, userId: b.userId };
  const documentId = await createDocumentRecord(b.sql, owner, { filename, sourceType: "file" });
  const { chunkCount } = await indexDocument(
    { sql: b.sql, embedder: b.embedder },
    { ...owner, documentId, extract, spaceId: null },
  );
  await markDocumentReady(b.sql, documentId, {
    blobKey: null,
    mimeType: extract.mimeType,
    pages: 1,
    markdown: extract.markdown,
    title: extract.title,
    chunkCount,
  });
  return chunkCount;
}

/** Chunk hits to corpus ids, best first, each document once (its best chunk). */
function documentRanking(hits: Pick<Hit, "filename">[]): string[] {
  const seen = new Set<string>();
  for (const h of hits) if (h.filename) seen.add(h.filename);
  return [...seen];
}

function scoreRanking(ranked: string[], rel: Map<string, number>): { ndcg: number; recall: number } {
  const top = ranked.slice(0, 10);
  let dcg = 0;
  top.forEach((d, i) => {
    dcg += (rel.get(d) ?? 0) / Math.log2(i + 2);
  });
  const ideal = [...rel.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, 10);
  const idcg = ideal.reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  const relevant = [...rel.values()].filter((g) => g > 0).length;
  return {
    ndcg: idcg > 0 ? dcg / idcg : 0,
    recall: relevant > 0 ? top.filter((d) => (rel.get(d) ?? 0) > 0).length / relevant : 0,
  };
}

const EVAL_CHUNKS = 40;

async function evaluate(b: Bench, qs: string[], mode: "lexical" | "vector" | "hybrid", fusion?: FusionParams) {
  let ndcg = 0;
  let recall = 0;
  for (const q of qs) {
    const hits = await b.search({
      tenantId: b.tenantId,
      userId: b.userId,
      scope: {},
      query: queries.get(q)!,
      topK: EVAL_CHUNKS,
      mode,
      fusion,
    });
    const s = scoreRanking(documentRanking(hits), allQrels.get(q)!);
    ndcg += s.ndcg;
    recall += s.recall;
  }
  return { ndcg: ndcg / qs.length, recall: recall / qs.length };
}

const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/**
 * Fusion grid on the tune half: both rankings are taken once per query, then fused per setting.
 * The best mean on 400 queries is partly noise (a weight picked that way lost to BM25 on the held-out
 * half), so the pick is the one-standard-error rule: of the settings whose tune nDCG@10 is within one
 * standard error (of the per-query differences) of the best, the one with the least vector weight,
 * i.e. closest to BM25, the stronger signal. Weights 0 and 1 (each signal alone) are in the grid, so
 * the pick never scores worse than the better signal on the tune half.
 */
async function tune(b: Bench, sqlite: Database) {
  const depth = 4 * EVAL_CHUNKS;
  const filenameOf = new Map(
    sqlite
      .query<{ seq: number; filename: string }, []>(
        "SELECT c.seq, d.filename FROM retrieval_chunks c JOIN documents d ON d.id = c.document_id",
      )
      .all()
      .map((r) => [r.seq, r.filename]),
  );
  const lists: (Rankings & { q: string })[] = [];
  for (const q of tuneQueries) {
    const r = await rankings(
      { sqlite, embedder: b.embedder },
      { tenantId: b.tenantId, userId: b.userId, scope: {}, query: queries.get(q)!, topK: depth },
      depth,
    );
    lists.push({ q, ...r });
  }
  const settings: FusionParams[] = [
    ...[0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 1].map((w) => ({ method: "convex" as const, vectorWeight: w })),
    ...[10, 30, 60].flatMap((k) =>
      [0.1, 0.2, 0.3, 0.4, 0.5].map((w) => ({ method: "rrf" as const, k, vectorWeight: w })),
    ),
  ];
  const perQuery = settings.map((p) =>
    lists.map((l) => {
      const fused = fuse(l.vector, l.lexical, p).slice(0, EVAL_CHUNKS);
      return scoreRanking(
        documentRanking(fused.map((r) => ({ filename: filenameOf.get(r.seq) ?? null }))),
        allQrels.get(l.q)!,
      ).ndcg;
    }),
  );
  const means = perQuery.map(mean);
  const best = means.indexOf(Math.max(...means));
  const gaps = perQuery.map((scores) => {
    const d = scores.map((x, j) => perQuery[best]![j]! - x);
    const m = mean(d);
    return { gap: m, se: Math.sqrt(d.reduce((a, x) => a + (x - m) ** 2, 0) / Math.max(1, d.length - 1) / d.length) };
  });
  const chosen = settings
    .map((p, i) => ({ p, i }))
    .filter(({ i }) => gaps[i]!.gap <= gaps[i]!.se)
    .sort((x, y) => x.p.vectorWeight - y.p.vectorWeight || means[y.i]! - means[x.i]!)[0]!.i;
  console.log(`  fusion grid on the tune half (${lists.length} queries):`);
  settings.forEach((p, i) => {
    const mark = i === chosen ? "  <- chosen" : i === best ? "  <- best mean" : "";
    const { gap, se } = gaps[i]!;
    console.log(
      `    ${JSON.stringify(p).padEnd(50)} nDCG@10 ${means[i]!.toFixed(4)}  below best ${gap.toFixed(4)} ± ${se.toFixed(4)}${mark}`,
    );
  });
  const held = await evaluate(b, heldOutQueries, "hybrid", settings[chosen]);
  console.log(
    `  chosen ${JSON.stringify(settings[chosen])}: held-out nDCG@10 ${held.ndcg.toFixed(4)}, recall@10 ${held.recall.toFixed(4)}`,
  );
}

function shuffled<T>(items: T[], rand: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Deterministic PRNG (mulberry32), so every run synthesizes the same filler. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function latency(b: Bench, sqlite: Database, sizes: number[]) {
  const rand = prng(42);
  const sentences = corpus.flatMap((d) => d.text.split(/(?<=[.!?])\s+/)).filter((s) => s.length > 20);
  const sample = shuffled(evalQueries, rand).slice(0, 300);
  let chunks = b.chunks;
  let n = 0;
  for (const size of sizes) {
    const started = performance.now();
    while (chunks < size) {
      const body = shuffled(sentences, rand)
        .slice(0, 6 + Math.floor(rand() * 10))
        .join(" ");
      chunks += await addDocument(b, `synthetic-${++n}`, extractOf({ title: `Synthetic ${n}`, text: body }));
    }
    if (performance.now() - started > 1000)
      console.log(`  filled to ${chunks} chunks in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    sqlite.run("PRAGMA optimize");
    const run = async (mode: "hybrid" | "vector" | "lexical") => {
      const times: number[] = [];
      for (const q of sample) {
        const t = performance.now();
        await b.search({
          tenantId: b.tenantId,
          userId: b.userId,
          scope: {},
          query: queries.get(q)!,
          topK: 10,
          mode,
        });
        times.push(performance.now() - t);
      }
      times.sort((x, y) => x - y);
      const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
      return `p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms`;
    };
    console.log(
      `  ${chunks} chunks: hybrid ${await run("hybrid")} | vector ${await run("vector")} | BM25 ${await run("lexical")}`,
    );
  }
}

async function availableEmbedders(): Promise<Embedder[]> {
  const cfg = loadConfig();
  const wanted = values.embedders?.split(",").map((s) => s.trim()) ?? ["builtin", "transformers", "ollama"];
  const out: Embedder[] = [];
  for (const kind of wanted) {
    if (kind === "builtin") out.push(builtinEmbedder());
    else if (kind === "transformers") {
      const model = cfg.embeddingModel ? inspectModel(cfg.modelsDir, cfg.embeddingModel) : findModel(cfg.modelsDir);
      if (model) out.push(transformersEmbedder(model));
      else console.log(`transformers: skipped, no ONNX model under ${cfg.modelsDir}/embeddings (see models/README.md)`);
    } else if (kind === "ollama") {
      const e = ollamaEmbedder({
        hosts: cfg.ollamaHost,
        model: cfg.embeddingModel ?? DEFAULT_OLLAMA_EMBEDDING_MODEL,
        timeoutMs: 2000,
        keepAlive: cfg.llmKeepAlive,
      });
      try {
        await e.embed(["probe"]);
        out.push(e);
      } catch (err) {
        console.log(`ollama: skipped (${(err as Error).message})`);
      }
    } else throw new Error(`unknown embedder ${kind}`);
  }
  return out;
}

const sizes = values["no-latency"] ? [] : values.sizes!.split(",").map(Number);
console.log(`Fusion in use: ${JSON.stringify(DEFAULT_FUSION)}`);
for (const [i, embedder] of (await availableEmbedders()).entries()) {
  console.log(`\n== ${embedder.id}`);
  const benches: Bench[] = [];
  try {
    for (const engine of engines) benches.push(await indexCorpus(engine, embedder));
    console.log("                    tune half            held-out half");
    console.log("  mode     engine    nDCG@10  recall@10   nDCG@10  recall@10");
    for (const mode of ["lexical", "vector", "hybrid"] as const) {
      for (const b of benches) {
        const [t, h] = [await evaluate(b, tuneQueries, mode), await evaluate(b, heldOutQueries, mode)];
        const cells = [t.ndcg, t.recall, h.ndcg, h.recall].map((x) => x.toFixed(4));
        console.log(
          `  ${(mode === "lexical" ? "BM25" : mode).padEnd(8)} ${b.engine.padEnd(9)} ${cells[0]}   ${cells[1]}      ${cells[2]}   ${cells[3]}`,
        );
      }
    }
    const onSqlite = benches.find((b) => b.sqlite);
    if (values.tune && onSqlite) await tune(onSqlite, onSqlite.sqlite!);
    // Latency with the first embedder only: filling 100k chunks through a neural model takes hours on CPU.
    if (i === 0 && sizes.length > 0 && onSqlite) await latency(onSqlite, onSqlite.sqlite!, sizes);
  } finally {
    for (const b of benches) await b.close();
  }
}
