/**
 * Hybrid search on PostgreSQL, the counterpart of search.ts's FTS5 and vec0 statements: full text
 * by the chunks' generated tsvector (`websearch_to_tsquery`, ranked by BM25 as FTS5 ranks), vectors by
 * pgvector's cosine distance when the extension is there, fused by fusion.ts as on SQLite. Tenant,
 * learner, scope, readiness and roles are conditions of both rankings, as on SQLite, so another
 * tenant's chunk can neither appear nor push one out.
 */

import { inJsonArray, type Query, raw, type Sql, sql } from "../db/sql.ts";
import type { BlockRole } from "../ingest/document.ts";
import type { Embedder } from "./embedders/types.ts";
import { questionTerms, withinPostingsBudget } from "./fts-query.ts";
import { DEFAULT_FUSION, fuse, type Ranked } from "./fusion.ts";
import { type Hit, type HitRow, hitsOf } from "./hits.ts";
import { embeddingInput } from "./index-chunks.ts";
import { findPostgresVectorTable, vectorLiteral } from "./postgres-vector-tables.ts";
import { everyDocumentOf, type ScopeFilter } from "./scope-tokens.ts";
import type { SearchInput } from "./search-input.ts";

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

/** FTS5's BM25 constants, so both engines weigh a term's repeats and a chunk's length alike. */
const K1 = 1.2;
const B = 0.75;
/**
 * Column weights as SQLite's bm25() has them: the heading context (tsvector weight B) counts half
 * the text (weight A); it repeats across every chunk of a section.
 */
const HEADING_WEIGHT = 0.5;
const BODY_WEIGHT = 1;

/** FTS5's IDF: log((N - n + 0.5) / (n + 0.5)), a term in over half the chunks counting next to nothing. */
const idfOf = (chunks: number, n: number) => {
  const idf = Math.log((chunks - n + 0.5) / (n + 0.5));
  return idf > 0 ? idf : 1e-6;
};

interface QueryLexeme {
  word: string;
  lexeme: string;
  df: number;
}

/**
 * The question's words as the index's lexemes (English-stemmed as the tsvector is), each with the
 * number of chunks holding it, from the term statistics the triggers keep (0017_retrieval_bm25).
 */
async function lexemesOf(db: Sql, words: string[]): Promise<QueryLexeme[]> {
  return db.all<QueryLexeme>(
    sql`SELECT w.word, u.lexeme, coalesce(t.chunks, 0) AS df
          FROM jsonb_array_elements_text(${JSON.stringify(words)}::text::jsonb) AS w(word)
          CROSS JOIN LATERAL unnest(to_tsvector('english', w.word)) AS u
          LEFT JOIN retrieval_terms t ON t.term = u.lexeme`,
  );
}

/**
 * Full-text ranking by BM25, as FTS5 ranks on SQLite: the GIN index finds the chunks holding any
 * of the question's content words (OR-ed, as SQLite's query: a question rarely has all its words
 * in one chunk; the commonest left out past the postings budget), each scored from its tsvector's
 * term frequencies and its stored length (words counted as FTS5 counts them) with the IDFs and
 * average length of the whole index.
 * websearch_to_tsquery reads no operator but `or`, so nothing a user types is an error.
 */
async function lexicalRanking(db: Sql, f: Filter, question: string, k: number): Promise<Ranked[]> {
  const lexemes = await lexemesOf(db, questionTerms(question));
  const dfOfWord = new Map<string, number>();
  for (const l of lexemes) dfOfWord.set(l.word, Math.max(dfOfWord.get(l.word) ?? 0, l.df));
  const words = new Set(withinPostingsBudget([...dfOfWord.keys()], dfOfWord));
  return bm25Ranking(
    db,
    f,
    lexemes.filter((l) => words.has(l.word)),
    k,
  );
}

/** The chunks holding any of the lexemes' words, scored by BM25, best first. */
async function bm25Ranking(db: Sql, f: Filter, lexemes: QueryLexeme[], k: number): Promise<Ranked[]> {
  if (lexemes.length === 0) return [];
  const totals = await db.get<{ chunks: number; tokens: number }>(
    sql`SELECT CAST(chunks AS double precision) AS chunks, CAST(tokens AS double precision) AS tokens FROM retrieval_term_totals`,
  );
  const chunks = totals?.chunks ?? 0;
  if (chunks === 0) return [];
  const avgLength = Math.max(1, totals!.tokens / chunks);
  const idf = new Map(lexemes.map((l) => [l.lexeme, idfOf(chunks, l.df)]));
  const weights = JSON.stringify([...idf].map(([term, w]) => ({ term, idf: w })));
  const words = [...new Set(lexemes.map((l) => l.word))];
  return db.all<Ranked>(
    sql`WITH q AS (SELECT * FROM jsonb_to_recordset(${weights}::text::jsonb) AS q(term text, idf double precision))
        SELECT c.seq, s.score
          FROM retrieval_chunks c
          CROSS JOIN LATERAL (
            SELECT sum(q.idf * m.f * ${raw(String(K1 + 1))}
                       / (m.f + ${raw(String(K1))} * (${raw(String(1 - B))} + ${raw(String(B))} * c.search_length / ${avgLength}::double precision))) AS score
              FROM (SELECT u.lexeme,
                           ${raw(String(BODY_WEIGHT))} * cardinality(array_positions(u.weights, 'A'))
                             + ${raw(String(HEADING_WEIGHT))} * cardinality(array_positions(u.weights, 'B')) AS f
                      FROM unnest(c.search) AS u) m
              JOIN q ON q.term = m.lexeme
          ) s
         WHERE c.search @@ websearch_to_tsquery('english', ${words.join(" or ")}) AND ${filterSql(f)}
         ORDER BY s.score DESC, c.seq LIMIT ${k}`,
  );
}

/**
 * The learner's chunks of the given roles holding any of `words` (all of them, no postings budget:
 * topic match weighs every chunk that names a topic term), at most `k`, best BM25 first: SQLite's
 * FTS5 query in chunk-reads.ts, on PostgreSQL.
 */
export async function chunkSeqsWithAnyWord(
  db: Sql,
  owner: { tenantId: string; userId: string },
  words: string[],
  roles: readonly BlockRole[],
  k: number,
): Promise<number[]> {
  const f: Filter = { ...everyDocumentOf(owner), roles };
  return (await bm25Ranking(db, f, await lexemesOf(db, words), k)).map((r) => r.seq);
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
