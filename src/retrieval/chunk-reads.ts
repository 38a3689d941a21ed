/**
 * Stored chunks read back for course building: a cited chunk's text, a document's teaching chunks in
 * reading order, and the learner's ready teaching chunks holding any of a topic's words.
 */
import type { Database } from "bun:sqlite";
import type { BlockRole } from "../ingest/document.ts";
import { anyOf } from "./fts-query.ts";
import { scopeExpression } from "./scope-tokens.ts";

/** Chunk id → text; ids whose chunk is gone are absent. */
export function chunkTexts(sqlite: Database, chunkIds: readonly string[]): Map<string, string> {
  if (chunkIds.length === 0) return new Map();
  const rows = sqlite
    .query<{ id: string; text: string }, [string]>(
      "SELECT id, text FROM retrieval_chunks WHERE id IN (SELECT value FROM json_each(?))",
    )
    .all(JSON.stringify(chunkIds));
  return new Map(rows.map((r) => [r.id, r.text]));
}

/** How many chunks a document has now and its newest chunk's row: a reindex changes one or both. */
export const documentChunkState = (sqlite: Database, documentId: string) =>
  sqlite
    .query<{ n: number; last: number | null }, [string]>(
      "SELECT count(*) AS n, max(rowid) AS last FROM retrieval_chunks WHERE document_id = ?",
    )
    .get(documentId);

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
export function documentChunks(sqlite: Database, documentId: string, roles: readonly BlockRole[]): DocumentChunk[] {
  return sqlite
    .query<DocumentChunk, [string, string]>(
      `SELECT c.id, c.text, c.heading_path, c.page, c.slide, c.timestamp_seconds, c.role, d.filename
         FROM retrieval_chunks c JOIN documents d ON d.id = c.document_id
        WHERE c.document_id = ? AND c.role IN (SELECT value FROM json_each(?)) ORDER BY c.position`,
    )
    .all(documentId, JSON.stringify(roles));
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

/**
 * The learner's chunks of ready indexed documents, of the given roles, holding any of `words`: at
 * most `limit`, best BM25 first.
 */
export function chunksWithAnyWord(
  sqlite: Database,
  owner: { tenantId: string; userId: string },
  words: string[],
  roles: readonly BlockRole[],
  limit: number,
): MatchedChunk[] {
  const scope = scopeExpression({
    tenantId: owner.tenantId,
    userId: owner.userId,
    documentIds: [],
    spaceId: null,
    courseId: null,
    allDocuments: true,
  });
  const seqs = sqlite
    .query<{ seq: number }, [string, number]>(
      "SELECT rowid AS seq FROM retrieval_fts WHERE retrieval_fts MATCH ? ORDER BY rank LIMIT ?",
    )
    .all(`(${anyOf(words)}) AND ${scope}`, limit)
    .map((r) => r.seq);
  // The FTS5 scope keys are hashes: the rows themselves are checked.
  return sqlite
    .query<MatchedChunk, [string, string, string, string]>(
      `SELECT c.seq, c.id, c.document_id, c.position, c.context, c.text, c.heading_path, c.page, c.slide, d.filename
         FROM retrieval_chunks c JOIN documents d ON d.id = c.document_id
        WHERE c.seq IN (SELECT value FROM json_each(?)) AND c.tenant_id = ? AND c.user_id = ?
          AND d.kind = 'index' AND d.status = 'ready' AND c.role IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(seqs), owner.tenantId, owner.userId, JSON.stringify(roles));
}
