/**
 * Retrieval's public API: chunking, indexing of documents and chapters, hybrid search, and the
 * embedders. Everything else in src/retrieval is internal.
 */

export { type Chunk, type ChunkOptions, chunkDocument, chunkMarkdown } from "./chunk.ts";
export {
  chunksWithAnyWord,
  chunkTexts,
  type DocumentChunk,
  documentChunkState,
  documentChunks,
  type MatchedChunk,
} from "./chunk-reads.ts";
export { deleteChunksOf, deleteCourseChunks } from "./chunk-writes.ts";
export { createEmbedder } from "./embedders/create.ts";
export type { Embedder } from "./embedders/types.ts";
export type { Hit } from "./hits.ts";
export {
  type IndexChapterInput,
  type IndexDeps,
  type IndexDocumentInput,
  indexChapter,
  indexDocument,
  type RetrievalDeps,
} from "./index-chunks.ts";
export { chapterIndexJob, type IndexSettings, indexJob } from "./index-job.ts";
export { type ReindexProgress, reindexAll } from "./reindex.ts";
export { search } from "./search.ts";
export type { SearchInput, SearchScope } from "./search-input.ts";
