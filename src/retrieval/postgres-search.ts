/**
 * Hybrid search on PostgreSQL, the counterpart of search.ts's FTS5 and vec0 statements: full text
 * by the chunks' generated tsvector (`websearch_to_tsquery`, ranked by `ts_rank_cd`), vectors by
 * pgvector's cosine distance when the extension is there, fused by fusion.ts as on SQLite. Tenant,
 * learner, scope, readiness and roles are conditions of both rankings, as on SQLite, so another
 * tenant's chunk can neither appear nor push one out.
 */

import { inJsonArray, type Query, raw, type Sql, sql } from "../db/sql.ts";
import type { BlockRole } from "../ingest/document.ts";
import type { Embedder } from "./embedders/types.ts";
import { questionTerms } from "./fts-query.ts";
import { DEFAULT_FUSION, fuse, type Ranked } from "./fusion.ts";
import { type HitRow, hitsOf } from "./hits.ts";
import { embeddingInput } from "./index-chunks.ts";
import { findPostgresVectorTable, vectorLiteral } from "./postgres-vector-tables.ts";
import type { ScopeFilter } from "./scope-tokens.ts";
import type { Hit, SearchInput } from "./search.ts";

export interface PostgresSearchDeps {
  db: Sql;
  /** The embedder chosen at start (the query is embedded by it, as on SQLite). */
  embedder: Embedder;
  /** Whether the database has pgvector (postgres-vector-tables.ts `announceVectorSupport`). */
  vectors: boolean;
}

interface Filter extends ScopeFilter {
  roles: readonly BlockRole[] | null;
}

async function filterOf(db: Sql, input: SearchInput): Promise<Filter> {
  const { documentIds = [], spaceId = null, courseId = null } = input.scope;
  const ids = new Set(documentIds);
  if (courseId) {
    const rows = await db.all<{ document_id: string }>(
      sql`SELECT document_id FROM course_documents WHERE course_id = ${courseId}`,
    );
    for (const r of rows) ids.add(r.document_id);
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

/** SQLite's filter over retrieval_chunks `c`; a document still being indexed counts once it is ready. */
function filterSql(f: Filter): Query {
  const scope: Query[] = [];
  if (f.allDocuments) scope.push(sql`c.document_id IS NOT NULL`);
  if (f.documentIds.length > 0) scope.push(inJsonArray("c.document_id", f.documentIds));
  if (f.spaceId) scope.push(sql`c.space_id = ${f.spaceId}`);
  if (f.courseId) scope.push(sql`c.course_id = ${f.courseId}`);
  const anyScope = scope.reduce((a, b) => sql`${a} OR ${b}`);
  return sql`c.tenant_id = ${f.tenantId}${f.userId !== null ? sql` AND c.user_id = ${f.userId}` : sql``}
    AND NOT EXISTS (SELECT 1 FROM documents pd WHERE pd.id = c.document_id AND pd.status = 'processing')
    AND (${anyScope})${f.roles ? sql` AND ${inJsonArray("c.role", f.roles)}` : sql``}`;
}

/**
 * ts_rank_cd's weights for labels {D, C, B, A}: the heading context (B) counts half the text (A),
 * as SQLite's bm25 column weights have it; it repeats across every chunk of a section.
 */
const RANK_WEIGHTS = "{0, 0, 0.5, 1}";
/**
 * Divides a rank by the chunk's length (BM25 normalises by length too). On the dev half's HTML
 * books (bash manual, RFC 6787; their 150 section headings as queries) it put the top hit in the
 * named section for 31% of queries, against 21% dividing by 1 + log(length) and 17% not at all
 * (FTS5's BM25: 48%; ts_rank_cd has no IDF).
 */
const RANK_NORMALIZATION = 2;

/**
 * Full-text ranking. The question's content words are OR-ed, as SQLite's FTS5 query does (a
 * question rarely has all its words in one chunk); websearch_to_tsquery reads no operator
 * but that `or`, so nothing a user types is an error.
 */
async function lexicalRanking(db: Sql, f: Filter, question: string, k: number): Promise<Ranked[]> {
  const terms = questionTerms(question);
  if (terms.length === 0) return [];
  return db.all<Ranked>(
    sql`SELECT c.seq, ts_rank_cd(${RANK_WEIGHTS}::float4[], c.search, q, ${RANK_NORMALIZATION}) AS score
          FROM retrieval_chunks c, websearch_to_tsquery('english', ${terms.join(" or ")}) q
         WHERE c.search @@ q AND ${filterSql(f)}
         ORDER BY score DESC, c.seq LIMIT ${k}`,
  );
}

/**
 * HNSW candidates the index visits (pgvector's `hnsw.ef_search`, 40 by default). The filter
 * applies after the index scan, so it looks at more than it keeps; 1000 is pgvector's ceiling.
 */
const efSearch = (k: number) => Math.min(1000, Math.max(100, 4 * k));

/** Vector ranking by cosine distance (`<=>`), best first; the score is the cosine similarity. */
async function vectorRanking(db: Sql, table: string, f: Filter, query: Float32Array, k: number): Promise<Ranked[]> {
  const v = vectorLiteral(query);
  return db.transaction(async (tx) => {
    await tx.get(sql`SELECT set_config('hnsw.ef_search', ${String(efSearch(k))}, true)`);
    return tx.all<Ranked>(
      sql`SELECT v.chunk_seq AS seq, 1 - (v.embedding <=> ${v}::vector) AS score
            FROM ${raw(table)} v JOIN retrieval_chunks c ON c.seq = v.chunk_seq
           WHERE ${filterSql(f)}
           ORDER BY v.embedding <=> ${v}::vector LIMIT ${k}`,
    );
  });
}

type ChunkRow = HitRow;

const seqsIn = (seqs: number[]) =>
  sql`(SELECT jsonb_array_elements_text(${JSON.stringify(seqs)}::text::jsonb)::integer)`;

async function loadChunks(db: Sql, seqs: number[]): Promise<Map<number, ChunkRow>> {
  const rows = await db.all<ChunkRow>(
    sql`SELECT c.seq, c.id, c.document_id, c.chapter_id, c.course_id, d.filename, c.text, c.context, c.heading_path,
               c.role, c.page, c.slide, c.timestamp_seconds, c.position
          FROM retrieval_chunks c LEFT JOIN documents d ON d.id = c.document_id
         WHERE c.seq IN ${seqsIn(seqs)}`,
  );
  return new Map(rows.map((r) => [r.seq, r]));
}

/**
 * Cosine similarity of the query with hits the vector ranking did not score: from the vector table
 * when the chunk is in it, else embedded now (always, without pgvector).
 */
async function similarities(
  deps: PostgresSearchDeps,
  table: string | null,
  query: Float32Array,
  rows: ChunkRow[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (table && rows.length > 0) {
    const stored = await deps.db.all<{ seq: number; score: number }>(
      sql`SELECT chunk_seq AS seq, 1 - (embedding <=> ${vectorLiteral(query)}::vector) AS score
            FROM ${raw(table)} WHERE chunk_seq IN ${seqsIn(rows.map((r) => r.seq))}`,
    );
    for (const s of stored) out.set(s.seq, s.score);
  }
  const missing = rows.filter((r) => !out.has(r.seq));
  if (missing.length > 0) {
    const vectors = await deps.embedder.embed(missing.map((r) => embeddingInput(r.context, r.text)));
    missing.forEach((r, i) => {
      let dot = 0;
      for (let j = 0; j < query.length; j++) dot += query[j]! * vectors[i]![j]!;
      out.set(r.seq, dot);
    });
  }
  return out;
}

export async function searchPostgres(deps: PostgresSearchDeps, input: SearchInput): Promise<Hit[]> {
  const mode = input.mode ?? "hybrid";
  const topK = Math.max(1, Math.floor(input.topK));
  const depth = input.candidates ?? Math.max(4 * topK, 40);
  const f = await filterOf(deps.db, input);
  const [query] = await deps.embedder.embed([input.query]);
  const table = deps.vectors
    ? await findPostgresVectorTable(deps.db, { embedder: deps.embedder.id, dimension: query!.length })
    : null;
  const vector = mode !== "lexical" && table ? await vectorRanking(deps.db, table, f, query!, depth) : [];
  const lexical = mode !== "vector" ? await lexicalRanking(deps.db, f, input.query, depth) : [];
  const ranked =
    mode === "hybrid" ? fuse(vector, lexical, input.fusion ?? DEFAULT_FUSION) : mode === "vector" ? vector : lexical;

  const top = ranked.slice(0, topK);
  if (top.length === 0) return [];
  const rows = await loadChunks(
    deps.db,
    top.map((r) => r.seq),
  );
  const known = new Map(vector.map((r) => [r.seq, r.score]));
  const unscored = top.filter((r) => !known.has(r.seq)).flatMap((r) => rows.get(r.seq) ?? []);
  const computed = await similarities(deps, table, query!, unscored);

  return hitsOf(top, rows, (seq) => known.get(seq) ?? computed.get(seq) ?? 0);
}
