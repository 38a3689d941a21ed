/**
 * Hybrid search: vector KNN (vec0) and BM25 (FTS5) over the chunks the caller may see, fused.
 * Tenant, learner and scope are conditions of both searches themselves, so ranking only ever
 * sees the caller's own chunks: another tenant's chunk cannot appear, nor push one out. On
 * PostgreSQL `search` hands the same input to postgres-search.ts.
 */
import type { Database } from "bun:sqlite";
import type { SqliteSql } from "../db/sql.ts";
import type { BlockRole } from "../ingest/document.ts";
import { binaryCode } from "./binary-code.ts";
import { anyOf, questionTerms, selectTerms } from "./fts-query.ts";
import { DEFAULT_FUSION, fuse, type Ranked } from "./fusion.ts";
import { type Hit, type HitRow, hitsOf } from "./hits.ts";
import { embeddingInput, type RetrievalDeps } from "./index-chunks.ts";
import { searchPostgres } from "./postgres-search.ts";
import { hasPgvector } from "./postgres-vector-tables.ts";
import { type ScopeFilter, scopeExpression } from "./scope-tokens.ts";
import type { SearchInput } from "./search-input.ts";
import { findVectorTable, keyOf } from "./vector-tables.ts";

/** The scope (an empty one: every document chunk of the owner) and the block roles asked for. */
interface Filter extends ScopeFilter {
  roles: readonly BlockRole[] | null;
}

function filterOf(sqlite: Database, input: SearchInput): Filter {
  const { documentIds = [], spaceId = null, courseId = null } = input.scope;
  const ids = new Set(documentIds);
  if (courseId) {
    for (const r of sqlite
      .query<{ document_id: string }, [string]>("SELECT document_id FROM course_documents WHERE course_id = ?")
      .all(courseId)) {
      ids.add(r.document_id);
    }
  }
  return {
    tenantId: input.tenantId,
    userId: input.userId ?? null,
    documentIds: [...ids],
    spaceId,
    courseId,
    allDocuments: documentIds.length === 0 && !spaceId && !courseId,
    roles: input.roles ?? null,
  };
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/** The filter as SQL over retrieval_chunks `c`, with its parameters. */
/** A document still being indexed is written in batches: its chunks count once it is ready. */
const FILTER_SQL = `c.tenant_id = ? AND (? IS NULL OR c.user_id = ?)
  AND NOT EXISTS (SELECT 1 FROM documents pd WHERE pd.id = c.document_id AND pd.status = 'processing')
  AND ((? = 1 AND c.document_id IS NOT NULL) OR c.document_id IN (SELECT value FROM json_each(?)) OR c.space_id = ? OR c.course_id = ?)
  AND (? IS NULL OR c.role IN (SELECT value FROM json_each(?)))`;

const filterParams = (f: Filter) => [
  f.tenantId,
  f.userId,
  f.userId,
  f.allDocuments ? 1 : 0,
  JSON.stringify(f.documentIds),
  f.spaceId,
  f.courseId,
  f.roles ? 1 : null,
  JSON.stringify(f.roles ?? []),
];

/** Candidates taken by Hamming distance of binary codes for every result kept after exact rescoring. */
const COARSE_FACTOR = 2;
const MIN_COARSE = 64;

const asVector = (b: Uint8Array) => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);

/**
 * Vector ranking in two stages: a vec0 KNN over binary codes (once per scope part, since vec0
 * metadata constraints cannot be OR-ed) picks candidates, then their stored float vectors give the
 * exact cosine that ranks them. The metadata keys are hashes, so candidates are re-checked
 * against the chunk rows.
 */
function vectorRanking(sqlite: Database, table: string, f: Filter, query: Float32Array, k: number): Ranked[] {
  const owner = f.userId !== null ? " AND user_key = ?" : "";
  const parts: [string, string | number | null][] = [];
  if (f.allDocuments) parts.push(["document_key != 0", null]);
  if (f.documentIds.length > 0)
    parts.push(["document_key IN (SELECT value FROM json_each(?))", JSON.stringify(f.documentIds.map(keyOf))]);
  if (f.spaceId) parts.push(["space_key = ?", keyOf(f.spaceId)]);
  if (f.courseId) parts.push(["course_key = ?", keyOf(f.courseId)]);
  const code = binaryCode(query);
  const coarse = Math.max(k * COARSE_FACTOR, MIN_COARSE);
  const cosine = new Map<number, number>();
  for (const [condition, value] of parts) {
    const params: (string | number | Uint8Array)[] = [code, coarse, f.tenantId];
    if (f.userId !== null) params.push(keyOf(f.userId));
    if (value !== null) params.push(value);
    const rows = sqlite
      .query<{ seq: number; embedding: Uint8Array }, (string | number | Uint8Array)[]>(
        `SELECT chunk_seq AS seq, embedding FROM ${table}
          WHERE code MATCH vec_bit(?) AND k = ? AND tenant_id = ?${owner} AND ${condition}`,
      )
      .all(...params);
    for (const r of rows) if (!cosine.has(r.seq)) cosine.set(r.seq, dot(query, asVector(r.embedding)));
  }
  const best = [...cosine]
    .map(([seq, score]) => ({ seq, score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
  return verified(sqlite, f, best);
}

// Heading context matters less than the body: it repeats across every chunk of a section. The
// scope column is a filter, never a match to rank by.
const HEADING_WEIGHT = 0.5;
const BODY_WEIGHT = 1;

/**
 * Keeps the candidates whose chunk rows really match the filter (the FTS and vec0 keys are hashes).
 * The candidates are looked up by key (CROSS JOIN keeps that order): left to itself SQLite walked the
 * owner index, every chunk of the tenant, to find a few dozen.
 */
function verified(sqlite: Database, f: Filter, ranked: Ranked[]): Ranked[] {
  if (ranked.length === 0) return ranked;
  const allowed = new Set(
    sqlite
      .query<{ seq: number }, (string | number | null)[]>(
        `SELECT c.seq FROM json_each(?) AS j CROSS JOIN retrieval_chunks c ON c.seq = j.value WHERE ${FILTER_SQL}`,
      )
      .all(JSON.stringify(ranked.map((r) => r.seq)), ...filterParams(f))
      .map((r) => r.seq),
  );
  return ranked.filter((r) => allowed.has(r.seq));
}

/** FTS5 BM25 over the same chunks, owner and scope applied inside the FTS5 query. */
function lexicalRanking(sqlite: Database, f: Filter, question: string, k: number): Ranked[] {
  const terms = questionTerms(question);
  if (terms.length === 0) return [];
  const rows = sqlite
    .query<{ seq: number; bm25: number }, [string, number]>(
      `SELECT rowid AS seq, bm25(retrieval_fts, ${HEADING_WEIGHT}, ${BODY_WEIGHT}, 0) AS bm25
         FROM retrieval_fts WHERE retrieval_fts MATCH ? ORDER BY bm25 LIMIT ?`,
    )
    .all(`(${anyOf(selectTerms(sqlite, terms))}) AND ${scopeExpression(f)}`, k);
  // FTS5's bm25() is negative, lower meaning better.
  return verified(
    sqlite,
    f,
    rows.map((r) => ({ seq: r.seq, score: -r.bm25 })),
  );
}

/** A hit's row, with the embedder that wrote its stored vector. */
interface ChunkRow extends HitRow {
  embedder: string;
  dimension: number;
}

function loadChunks(sqlite: Database, seqs: number[]): Map<number, ChunkRow> {
  const rows = sqlite
    .query<ChunkRow, [string]>(
      `SELECT c.seq, c.id, c.document_id, c.chapter_id, c.course_id, d.filename, c.text, c.context, c.heading_path, c.role,
              c.page, c.slide, c.timestamp_seconds, c.position, c.embedder, c.dimension
         FROM retrieval_chunks c LEFT JOIN documents d ON d.id = c.document_id
        WHERE c.seq IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(seqs));
  return new Map(rows.map((r) => [r.seq, r]));
}

/**
 * Cosine similarity of the query with chunks the vector ranking did not score: read from the
 * vector table, or embedded now for chunks not yet re-embedded with the active embedder.
 */
async function similarities(
  deps: SqliteSearchDeps,
  table: string | null,
  query: Float32Array,
  rows: ChunkRow[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const missing: ChunkRow[] = [];
  const read = table
    ? deps.sqlite.query<{ embedding: Uint8Array }, [number]>(`SELECT embedding FROM ${table} WHERE chunk_seq = ?`)
    : null;
  for (const r of rows) {
    const stored = r.embedder === deps.embedder.id && r.dimension === query.length ? read?.get(r.seq) : null;
    if (stored) {
      out.set(r.seq, dot(query, asVector(stored.embedding)));
    } else missing.push(r);
  }
  if (missing.length > 0) {
    const vectors = await deps.embedder.embed(missing.map((r) => embeddingInput(r.context, r.text)));
    missing.forEach((r, i) => {
      out.set(r.seq, dot(query, vectors[i]!));
    });
  }
  return out;
}

export interface Rankings {
  vector: Ranked[];
  lexical: Ranked[];
  query: Float32Array;
  table: string | null;
}

/** SQLite's search reads its own connection directly (FTS5, vec0). */
export interface SqliteSearchDeps {
  sqlite: Database;
  embedder: RetrievalDeps["embedder"];
}

/** SQLite's vector and BM25 candidate lists of a search, before fusion (the benchmark tunes fusion on these). */
export async function rankings(deps: SqliteSearchDeps, input: SearchInput, depth: number): Promise<Rankings> {
  const mode = input.mode ?? "hybrid";
  const f = filterOf(deps.sqlite, input);
  const [query] = await deps.embedder.embed([input.query]);
  const table = findVectorTable(deps.sqlite, { embedder: deps.embedder.id, dimension: query!.length });
  return {
    vector: mode !== "lexical" && table ? vectorRanking(deps.sqlite, table, f, query!, depth) : [],
    lexical: mode !== "vector" ? lexicalRanking(deps.sqlite, f, input.query, depth) : [],
    query: query!,
    table,
  };
}

export async function search(deps: RetrievalDeps, input: SearchInput): Promise<Hit[]> {
  if (deps.sql.dialect === "postgres") {
    return searchPostgres({ db: deps.sql, embedder: deps.embedder, vectors: await hasPgvector(deps.sql) }, input);
  }
  return searchSqlite({ sqlite: (deps.sql as SqliteSql).db, embedder: deps.embedder }, input);
}

async function searchSqlite(deps: SqliteSearchDeps, input: SearchInput): Promise<Hit[]> {
  const mode = input.mode ?? "hybrid";
  const topK = Math.max(1, Math.floor(input.topK));
  const { vector, lexical, query, table } = await rankings(deps, input, input.candidates ?? Math.max(4 * topK, 40));
  const ranked =
    mode === "hybrid" ? fuse(vector, lexical, input.fusion ?? DEFAULT_FUSION) : mode === "vector" ? vector : lexical;

  const top = ranked.slice(0, topK);
  const rows = loadChunks(
    deps.sqlite,
    top.map((r) => r.seq),
  );
  const known = new Map(vector.map((r) => [r.seq, r.score]));
  const unscored = top.filter((r) => !known.has(r.seq)).flatMap((r) => rows.get(r.seq) ?? []);
  const computed = await similarities(deps, table, query, unscored);

  return hitsOf(top, rows, (seq) => known.get(seq) ?? computed.get(seq) ?? 0);
}
