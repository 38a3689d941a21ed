/**
 * Retrieval's public API: chunking, indexing of documents and chapters, hybrid search, and the
 * embedders. Everything else in src/retrieval is internal.
 */
export { chunkDocument, chunkMarkdown, type Chunk, type ChunkOptions } from "./chunk.ts";
export {
  deleteChunksOf,
  indexChapter,
  indexDocument,
  type IndexChapterInput,
  type IndexDocumentInput,
  type RetrievalDeps,
} from "./index-chunks.ts";
export { indexJob } from "./index-job.ts";
export { search, type Hit, type SearchInput, type SearchScope } from "./search.ts";
export { createEmbedder } from "./embedders/create.ts";
export type { Embedder } from "./embedders/types.ts";
export { reindexAll, type ReindexProgress } from "./reindex.ts";
export { deleteDocument } from "../documents/records.ts";
