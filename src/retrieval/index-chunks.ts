/**
 * Indexing: chunks are embedded, then written with their FTS5 row and vector, replacing whatever
 * the same document or chapter had before. A chapter is written in one transaction, so a reader
 * sees the old index or the new one, never half of each. A document may be 50 MB of text (~30,000
 * chunks, a minute of embedding): uploaded files are indexed in their extraction process and a
 * course's chapters in the extractive engine's thread (worker-index.ts), and any document is embedded and written in small batches that give the
 * event loop back between them; search leaves out the chunks of a document still 'processing'.
 */
import type { Database } from "bun:sqlite";
import type { ExtractResult } from "../ingest/types.ts";
import { newId, nowIso } from "../util.ts";
import { type Chunk, chunkDocument, chunkMarkdown } from "./chunk.ts";
import type { Embedder } from "./embedders/types.ts";
import { scopeTokens } from "./scope-tokens.ts";
import { ensureVectorTable, insertVectorSql, vectorKeys, vectorRow } from "./vector-tables.ts";

export interface RetrievalDeps {
  sqlite: Database;
  /** The embedder chosen at start: every new chunk vector is made by it. */
  embedder: Embedder;
}

/** Who a set of chunks belongs to and what it came from: a document, or a course chapter. */
export interface ChunkOwner {
  tenantId: string;
  userId: string | null;
  documentId: string | null;
  courseId: string | null;
  chapterId: string | null;
  spaceId: string | null;
}

/** Heading context prepended to what is embedded and indexed (never to the returned text). */
function contextOf(title: string | null, headingPath: string[]): string {
  const parts = title && headingPath[0] !== title ? [title, ...headingPath] : headingPath;
  return parts.join(" › ");
}

export const embeddingInput = (context: string, text: string) => (context ? `${context}\n\n${text}` : text);

export interface PreparedChunk extends Chunk {
  id: string;
  context: string;
}

/** Embeds and stores the chunks of one owner, replacing the owner's previous chunks. */
async function storeChunks(deps: RetrievalDeps, owner: ChunkOwner, chunks: PreparedChunk[]): Promise<void> {
  // Embedded in batches like a document's (a long chapter holds hundreds of chunks), written at once.
  const vectors = await embedInBatches(deps.embedder, chunks);
  writeChunks(deps.sqlite, deps.embedder, owner, chunks, vectors);
}

/** Texts embedded per call for a document: ~20 ms of the built-in embedder's work. */
const EMBED_BATCH = 16;
/** Chunks written per transaction for a document: a few milliseconds each. */
const WRITE_BATCH = 200;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function embedInBatches(embedder: Embedder, chunks: PreparedChunk[]): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
    const batch = chunks.slice(start, start + EMBED_BATCH).map((c) => embeddingInput(c.context, c.text));
    vectors.push(...(await embedder.embed(batch)));
    await nextTurn();
  }
  return vectors;
}

/** Writes the chunks in one transaction, replacing the owner's previous chunks. */
function writeChunks(
  sqlite: Database,
  embedder: Pick<Embedder, "id">,
  owner: ChunkOwner,
  chunks: PreparedChunk[],
  vectors: Float32Array[],
): void {
  insertChunks(sqlite, embedder, owner, chunks, vectors, true);
}

function insertChunks(
  sqlite: Database,
  embedder: Pick<Embedder, "id">,
  owner: ChunkOwner,
  chunks: PreparedChunk[],
  vectors: Float32Array[],
  replace: boolean,
): void {
  const dimension = vectors[0]?.length ?? 0;
  const table = dimension > 0 ? ensureVectorTable(sqlite, { embedder: embedder.id, dimension }) : null;
  // query(), not prepare(): the statements are compiled once per connection, not once per document.
  const insertChunk = sqlite.query<{ seq: number }, (string | number | null)[]>(
    `INSERT INTO retrieval_chunks (id, tenant_id, user_id, document_id, course_id, chapter_id, space_id, position, text,
       context, heading_path, role, page, slide, timestamp_seconds, embedder, dimension, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
  );
  const insertFts = sqlite.query("INSERT INTO retrieval_fts (rowid, heading, body, scope) VALUES (?, ?, ?, ?)");
  const insertVector = table ? sqlite.query(insertVectorSql(table)) : null;
  const createdAt = nowIso();
  const scope = scopeTokens(owner);
  const keys = vectorKeys({
    user_id: owner.userId,
    document_id: owner.documentId,
    course_id: owner.courseId,
    space_id: owner.spaceId,
  });
  // Everything but the inserts is made before the transaction: it holds the database's one write
  // lock, which the server's own writes wait for while another thread or process indexes.
  const rows = chunks.map((c, i) => ({
    chunk: [
      c.id,
      owner.tenantId,
      owner.userId,
      owner.documentId,
      owner.courseId,
      owner.chapterId,
      owner.spaceId,
      c.position,
      c.text,
      c.context,
      JSON.stringify(c.headingPath),
      c.role,
      c.page ?? null,
      c.slide ?? null,
      c.timestamp ?? null,
      embedder.id,
      dimension,
      createdAt,
    ],
    // The chunk's seq, known once it is inserted, goes first.
    vector: insertVector ? vectorRow(0, owner.tenantId, keys, vectors[i]!) : null,
    fts: [c.context, c.text, scope],
  }));
  sqlite.transaction(() => {
    if (replace) deleteChunksOf(sqlite, owner);
    for (const row of rows) {
      const { seq } = insertChunk.get(...row.chunk)!;
      insertFts.run(seq, ...row.fts);
      if (row.vector) {
        row.vector[0] = seq;
        insertVector!.run(...row.vector);
      }
    }
  })();
}

/** Removes a document's or chapter's chunks; triggers drop their FTS rows and vectors. */
export function deleteChunksOf(sqlite: Database, owner: Pick<ChunkOwner, "documentId" | "chapterId">): number {
  if (owner.documentId)
    return sqlite.run("DELETE FROM retrieval_chunks WHERE document_id = ?", [owner.documentId]).changes;
  if (owner.chapterId)
    return sqlite.run("DELETE FROM retrieval_chunks WHERE chapter_id = ?", [owner.chapterId]).changes;
  return 0;
}

/** Removes every chunk of a course's chapters, as the course is deleted; triggers drop their FTS rows and vectors. */
export function deleteCourseChunks(sqlite: Database, courseId: string): void {
  sqlite.run("DELETE FROM retrieval_chunks WHERE course_id = ?", [courseId]);
}

export interface IndexDocumentInput {
  tenantId: string;
  userId: string | null;
  documentId: string;
  extract: ExtractResult;
  /** Read from the document record when omitted. */
  spaceId?: string | null;
}

/** Chunks, embeds and indexes an extracted document (re-indexing replaces its chunks). */
export async function indexDocument(deps: RetrievalDeps, input: IndexDocumentInput): Promise<{ chunkCount: number }> {
  const spaceId =
    input.spaceId !== undefined
      ? input.spaceId
      : (deps.sqlite
          .query<{ space_id: string | null }, [string]>("SELECT space_id FROM documents WHERE id = ?")
          .get(input.documentId)?.space_id ?? null);
  const owner = {
    tenantId: input.tenantId,
    userId: input.userId,
    documentId: input.documentId,
    courseId: null,
    chapterId: null,
    spaceId,
  };
  const ids = await indexChunks(deps, owner, input.extract.title, chunkDocument(input.extract));
  return { chunkCount: ids.length };
}

/**
 * Embeds and writes a document's chunks batch by batch (only one batch's vectors are held at a
 * time), replacing its previous chunks; `beforeBatch` may stop the work between batches. Returns
 * the chunks' ids in the order of `cut`.
 */
export async function indexChunks(
  deps: RetrievalDeps,
  owner: ChunkOwner,
  title: string | null,
  cut: Chunk[],
  beforeBatch: () => void = () => {},
): Promise<string[]> {
  const heading = title?.trim() || null;
  const chunks = cut.map((c) => ({ ...c, id: newId(), context: contextOf(heading, c.headingPath) }));
  try {
    for (let start = 0; start === 0 || start < chunks.length; start += WRITE_BATCH) {
      beforeBatch();
      const batch = chunks.slice(start, start + WRITE_BATCH);
      insertChunks(deps.sqlite, deps.embedder, owner, batch, await embedInBatches(deps.embedder, batch), start === 0);
      await nextTurn();
    }
  } catch (err) {
    // No half-written index is left behind for a document that will be marked failed.
    deleteChunksOf(deps.sqlite, owner);
    throw err;
  }
  return chunks.map((c) => c.id);
}

export interface IndexChapterInput {
  tenantId: string;
  userId: string;
  courseId: string;
  chapterId: string;
  title: string;
  markdown: string;
}

/** Indexes a generated chapter for course Q&A, replacing its previous chunks. */
export async function indexChapter(deps: RetrievalDeps, input: IndexChapterInput): Promise<void> {
  const chunks = chunkMarkdown(input.markdown).map((c) => {
    const headingPath = c.headingPath[0] === input.title ? c.headingPath : [input.title, ...c.headingPath];
    return { ...c, headingPath, id: newId(), context: contextOf(null, headingPath) };
  });
  await storeChunks(
    deps,
    {
      tenantId: input.tenantId,
      userId: input.userId,
      documentId: null,
      courseId: input.courseId,
      chapterId: input.chapterId,
      spaceId: null,
    },
    chunks,
  );
}
