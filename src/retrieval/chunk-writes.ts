/**
 * The index's writes on either engine, through the seam: a batch of chunks with their full-text
 * rows and vectors, and the deletes. SQLite gives each chunk an FTS5 row (with its scope tokens)
 * and a vec0 row; PostgreSQL generates the chunk's tsvector with the row, and its triggers keep the
 * term statistics BM25 reads (migration 0017_retrieval_bm25). A deleted chunk takes its full-text
 * row, its vector and its terms' counts along on both (triggers and foreign keys), however it goes.
 */
import { type Query, type Sql, sql, valuesList } from "../db/sql.ts";
import { nowIso } from "../util.ts";
import type { Chunk } from "./chunk.ts";
import { scopeTokens } from "./scope-tokens.ts";
import type { StoredVector, VectorStore } from "./vector-store.ts";

/** Who a set of chunks belongs to and what it came from: a document, or a course chapter. */
export interface ChunkOwner {
  tenantId: string;
  userId: string | null;
  documentId: string | null;
  courseId: string | null;
  chapterId: string | null;
  spaceId: string | null;
}

/** A chunk as written: its id and heading context made, its text cut. */
export interface ChunkToWrite extends Chunk {
  id: string;
  context: string;
}

/** Rows per INSERT: well under SQLite's 32,766 bound parameters at 18 a row. */
const ROWS_PER_STATEMENT = 500;

function chunkValues(owner: ChunkOwner, embedder: string, dimension: number, createdAt: string, c: ChunkToWrite) {
  return sql`(${c.id}, ${owner.tenantId}, ${owner.userId}, ${owner.documentId}, ${owner.courseId}, ${owner.chapterId},
    ${owner.spaceId}, ${c.position}, ${c.text}, ${c.context}, ${JSON.stringify(c.headingPath)}, ${c.role},
    ${c.page ?? null}, ${c.slide ?? null}, ${c.timestamp ?? null}, ${embedder}, ${dimension}, ${createdAt})`;
}

/**
 * Writes chunks and their vectors in one transaction, first removing the owner's previous chunks
 * when `replace`; a reader sees the old chunks or the new ones, never half of each.
 */
export async function writeChunks(
  db: Sql,
  store: VectorStore,
  embedder: string,
  owner: ChunkOwner,
  chunks: readonly ChunkToWrite[],
  vectors: readonly Float32Array[],
  replace: boolean,
): Promise<void> {
  const dimension = vectors[0]?.length ?? 0;
  const table = dimension > 0 ? await store.ensure({ embedder, dimension }) : null;
  const createdAt = nowIso();
  const scope = scopeTokens(owner);
  await db.transaction(async (tx) => {
    if (replace) await deleteChunksOf(tx, owner);
    for (let start = 0; start < chunks.length; start += ROWS_PER_STATEMENT) {
      const part = chunks.slice(start, start + ROWS_PER_STATEMENT);
      // One statement per part: PostgreSQL's term statistics are counted once per statement.
      const inserted = await tx.all<{ seq: number; id: string }>(
        sql`INSERT INTO retrieval_chunks (id, tenant_id, user_id, document_id, course_id, chapter_id, space_id, position,
              text, context, heading_path, role, page, slide, timestamp_seconds, embedder, dimension, created_at)
            VALUES ${valuesList(part.map((c) => chunkValues(owner, embedder, dimension, createdAt, c)))} RETURNING seq, id`,
      );
      const seqOf = new Map(inserted.map((r) => [r.id, r.seq]));
      if (tx.dialect === "sqlite") {
        await tx.run(
          sql`INSERT INTO retrieval_fts (rowid, heading, body, scope)
              VALUES ${valuesList(part.map((c) => sql`(${seqOf.get(c.id)!}, ${c.context}, ${c.text}, ${scope})`))}`,
        );
      }
      if (table) {
        const rows: StoredVector[] = part.map((c, i) => ({
          seq: seqOf.get(c.id)!,
          tenant_id: owner.tenantId,
          user_id: owner.userId,
          document_id: owner.documentId,
          course_id: owner.courseId,
          space_id: owner.spaceId,
          vector: vectors[start + i]!,
        }));
        await store.write(tx, table, rows);
      }
    }
  });
}

function deleteOwnerQuery(owner: Pick<ChunkOwner, "documentId" | "chapterId">): Query | null {
  if (owner.documentId) return sql`DELETE FROM retrieval_chunks WHERE document_id = ${owner.documentId}`;
  if (owner.chapterId) return sql`DELETE FROM retrieval_chunks WHERE chapter_id = ${owner.chapterId}`;
  return null;
}

/** Removes a document's or chapter's chunks; returns how many went. */
export async function deleteChunksOf(db: Sql, owner: Pick<ChunkOwner, "documentId" | "chapterId">): Promise<number> {
  const q = deleteOwnerQuery(owner);
  return q ? db.run(q) : 0;
}

/** Removes every chunk of a course's chapters, as the course is deleted. */
export async function deleteCourseChunks(db: Sql, courseId: string): Promise<void> {
  await db.run(sql`DELETE FROM retrieval_chunks WHERE course_id = ${courseId}`);
}
