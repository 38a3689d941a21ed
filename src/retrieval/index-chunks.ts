/**
 * Indexing: chunks are embedded, then written with their full-text row and vector on either engine
 * (chunk-writes.ts), replacing whatever the same document or chapter had before. A chapter is written in one transaction, so a reader
 * sees the old index or the new one, never half of each. A document may be 50 MB of text (~30,000
 * chunks, a minute of embedding): uploaded files are indexed in their extraction process and a
 * course's chapters in the extractive engine's thread (worker-index.ts), and any document is embedded and written in small batches that give the
 * event loop back between them; search leaves out the chunks of a document still 'processing'.
 */
import { type Sql, sql } from "../db/sql.ts";
import type { ExtractResult } from "../ingest/types.ts";
import { newId } from "../util.ts";
import { type Chunk, chunkDocument, chunkMarkdown } from "./chunk.ts";
import { type ChunkOwner, type ChunkToWrite, deleteChunksOf, writeChunks } from "./chunk-writes.ts";
import type { Embedder } from "./embedders/types.ts";
import { vectorStoreOf } from "./vector-store.ts";

/** What search reads through: either engine's seam. */
export interface RetrievalDeps {
  sql: Sql;
  /** The embedder chosen at start: every new chunk vector is made by it. */
  embedder: Embedder;
}

/** What indexing writes through: either engine's seam. */
export interface IndexDeps {
  sql: Sql;
  /** The embedder chosen at start: every new chunk vector is made by it. */
  embedder: Embedder;
}

/** Heading context prepended to what is embedded and indexed (never to the returned text). */
function contextOf(title: string | null, headingPath: string[]): string {
  const parts = title && headingPath[0] !== title ? [title, ...headingPath] : headingPath;
  return parts.join(" › ");
}

export const embeddingInput = (context: string, text: string) => (context ? `${context}\n\n${text}` : text);

/** Texts embedded per call for a document: ~20 ms of the built-in embedder's work. */
const EMBED_BATCH = 16;
/** Chunks written per transaction for a document: a few milliseconds each. */
const WRITE_BATCH = 200;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function embedInBatches(embedder: Embedder, chunks: ChunkToWrite[]): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
    const batch = chunks.slice(start, start + EMBED_BATCH).map((c) => embeddingInput(c.context, c.text));
    vectors.push(...(await embedder.embed(batch)));
    await nextTurn();
  }
  return vectors;
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
export async function indexDocument(deps: IndexDeps, input: IndexDocumentInput): Promise<{ chunkCount: number }> {
  const spaceId =
    input.spaceId !== undefined
      ? input.spaceId
      : ((
          await deps.sql.get<{ space_id: string | null }>(
            sql`SELECT space_id FROM documents WHERE id = ${input.documentId}`,
          )
        )?.space_id ?? null);
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
  deps: IndexDeps,
  owner: ChunkOwner,
  title: string | null,
  cut: Chunk[],
  beforeBatch: () => void = () => {},
): Promise<string[]> {
  const heading = title?.trim() || null;
  const chunks = cut.map((c) => ({ ...c, id: newId(), context: contextOf(heading, c.headingPath) }));
  const store = await vectorStoreOf(deps.sql);
  try {
    for (let start = 0; start === 0 || start < chunks.length; start += WRITE_BATCH) {
      beforeBatch();
      const batch = chunks.slice(start, start + WRITE_BATCH);
      const vectors = await embedInBatches(deps.embedder, batch);
      await writeChunks(deps.sql, store, deps.embedder.id, owner, batch, vectors, start === 0);
      await nextTurn();
    }
  } catch (err) {
    // No half-written index is left behind for a document that will be marked failed.
    await deleteChunksOf(deps.sql, owner);
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
export async function indexChapter(deps: IndexDeps, input: IndexChapterInput): Promise<void> {
  const chunks = chunkMarkdown(input.markdown).map((c) => {
    const headingPath = c.headingPath[0] === input.title ? c.headingPath : [input.title, ...c.headingPath];
    return { ...c, headingPath, id: newId(), context: contextOf(null, headingPath) };
  });
  const owner = {
    tenantId: input.tenantId,
    userId: input.userId,
    documentId: null,
    courseId: input.courseId,
    chapterId: input.chapterId,
    spaceId: null,
  };
  // Embedded in batches like a document's (a long chapter holds hundreds of chunks), written at once.
  const vectors = await embedInBatches(deps.embedder, chunks);
  await writeChunks(deps.sql, await vectorStoreOf(deps.sql), deps.embedder.id, owner, chunks, vectors, true);
}
