/**
 * Stored chunks read back for course building, on either engine's seam: a cited chunk's text, a
 * document's teaching chunks in reading order, and the learner's ready teaching chunks holding any
 * of a topic's words.
 */
import { byDialect, inJsonArray, type Sql, type SqliteSql, sql } from "../db/sql.ts";
import type { BlockRole } from "../ingest/document.ts";
import { anyOf } from "./fts-query.ts";
import { chunkSeqsWithAnyWord } from "./postgres-search.ts";
import { everyDocumentOf, scopeExpression } from "./scope-tokens.ts";

/** Chunk id → text; ids whose chunk is gone are absent. */
export async function chunkTexts(db: Sql, chunkIds: readonly string[]): Promise<Map<string, string>> {
  if (chunkIds.length === 0) return new Map();
  const rows = await db.all<{ id: string; text: string }>(
    sql`SELECT id, text FROM retrieval_chunks WHERE ${inJsonArray("id", chunkIds)}`,
  );
  return new Map(rows.map((r) => [r.id, r.text]));
}

/** How many chunks a document has now and its newest chunk's row: a reindex changes one or both. */
export const documentChunkState = (db: Sql, documentId: string) =>
  db.get<{ n: number; last: number | null }>(
    sql`SELECT CAST(count(*) AS INTEGER) AS n, CAST(max(seq) AS INTEGER) AS last FROM retrieval_chunks WHERE document_id = ${documentId}`,
  );

export interface DocumentChunk {
  id: string;
  text: string;
  heading_path: string;
  page: number | null;
  slide: number | null;
  timestamp_seconds: number | null;
  role: BlockRole;
  filename: string;
}

/** A document's chunks of the given roles in reading order. */
export function documentChunks(db: Sql, documentId: string, roles: readonly BlockRole[]): Promise<DocumentChunk[]> {
  return db.all<DocumentChunk>(
    sql`SELECT c.id, c.text, c.heading_path, c.page, c.slide, c.timestamp_seconds, c.role, d.filename
          FROM retrieval_chunks c JOIN documents d ON d.id = c.document_id
         WHERE c.document_id = ${documentId} AND ${inJsonArray("c.role", roles)} ORDER BY c.position`,
  );
}

/** A document's chunks as its repeat detector reads them, with their place in reading order. */
export interface ChunkInOrder {
  id: string;
  position: number;
  text: string;
  heading_path: string;
  page: number | null;
  slide: number | null;
  role: BlockRole;
}

/**
 * A document's chunks of the given roles in reading order, `size` at a time: a whole 50 MB text read
 * at once held hundreds of MB of rows in the reader's memory.
 */
export async function* documentChunkBatches(
  db: Sql,
  documentId: string,
  roles: readonly BlockRole[],
  size: number,
): AsyncGenerator<ChunkInOrder[]> {
  for (let after = -1; ; ) {
    const batch = await db.all<ChunkInOrder>(
      sql`SELECT id, position, text, heading_path, page, slide, role FROM retrieval_chunks
           WHERE document_id = ${documentId} AND position > ${after} AND ${inJsonArray("role", roles)}
           ORDER BY position LIMIT ${size}`,
    );
    if (batch.length > 0) yield batch;
    if (batch.length < size) return;
    after = batch.at(-1)!.position;
  }
}

export interface MatchedChunk {
  seq: number;
  id: string;
  document_id: string;
  position: number;
  context: string;
  text: string;
  heading_path: string;
  page: number | null;
  slide: number | null;
  filename: string;
}

/** `c.seq IN (seqs)`, by the key's own index on both engines. */
const seqIn = (seqs: number[]) =>
  byDialect({
    sqlite: sql`c.seq IN (SELECT value FROM json_each(${JSON.stringify(seqs)}))`,
    postgres: sql`c.seq IN (SELECT jsonb_array_elements_text(${JSON.stringify(seqs)}::text::jsonb)::integer)`,
  });

/** The seqs of FTS5's best `limit` chunks of the learner holding any of `words`. */
function ftsSeqsWithAnyWord(
  db: SqliteSql,
  owner: { tenantId: string; userId: string },
  words: string[],
  limit: number,
) {
  const scope = scopeExpression(everyDocumentOf(owner));
  return db.db
    .query<{ seq: number }, [string, number]>(
      "SELECT rowid AS seq FROM retrieval_fts WHERE retrieval_fts MATCH ? ORDER BY rank LIMIT ?",
    )
    .all(`(${anyOf(words)}) AND ${scope}`, limit)
    .map((r) => r.seq);
}

/**
 * The learner's chunks of ready indexed documents, of the given roles, holding any of `words`: at
 * most `limit`, best BM25 first (FTS5 on SQLite, the tsvector's BM25 on PostgreSQL).
 */
export async function chunksWithAnyWord(
  db: Sql,
  owner: { tenantId: string; userId: string },
  words: string[],
  roles: readonly BlockRole[],
  limit: number,
): Promise<MatchedChunk[]> {
  const seqs =
    db.dialect === "postgres"
      ? await chunkSeqsWithAnyWord(db, owner, words, roles, limit)
      : ftsSeqsWithAnyWord(db as SqliteSql, owner, words, limit);
  if (seqs.length === 0) return [];
  // The FTS5 scope keys are hashes: the rows themselves are checked.
  return db.all<MatchedChunk>(
    sql`SELECT c.seq, c.id, c.document_id, c.position, c.context, c.text, c.heading_path, c.page, c.slide, d.filename
          FROM retrieval_chunks c JOIN documents d ON d.id = c.document_id
         WHERE ${seqIn(seqs)} AND c.tenant_id = ${owner.tenantId}
           AND c.user_id = ${owner.userId} AND d.kind = 'index' AND d.status = 'ready' AND ${inJsonArray("c.role", roles)}`,
  );
}
