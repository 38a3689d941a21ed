/** The shapes every extractor returns, and the settings extraction reads. */
import type { Config } from "../config.ts";
import type { EmbedderConfig } from "../retrieval/embedders/create.ts";
import type { Block, BlockRole } from "./document.ts";

/**
 * One citable piece of a document, read from its blocks: a page, a slide, a caption paragraph or
 * a heading section, never mixing roles (front/back matter is a segment of its own).
 */
export interface Segment {
  markdown: string;
  page?: number | null;
  slide?: number | null;
  /** Seconds from the start of a video. */
  timestamp?: number | null;
  /** The innermost heading over the segment's start (a slide's title for slides). */
  heading?: string | null;
  /** Enclosing headings of the segment's start, outermost first. */
  headingPath?: string[];
  role?: BlockRole;
}

/**
 * Text the document repeats of itself (found by documents/repeated-sections.ts): a run of
 * consecutive repeated chunks, and where its text first occurred.
 */
export interface RepeatedRun {
  heading_path: string[];
  page: number | null;
  last_page: number | null;
  words: number;
  first_seen: { heading_path: string[]; page: number | null };
}

export interface DocumentRepeats {
  /** Words of teaching text, repeats included. */
  words: number;
  repeated_words: number;
  runs: RepeatedRun[];
  /** The repeated chunks, left out of planning. */
  chunk_ids: string[];
}

export interface ExtractResult {
  /** The document model: every block in reading order, with its role and location. */
  blocks: Block[];
  /** The blocks as markdown, front/back matter marked with `<!-- role: … -->` comments. */
  markdown: string;
  title: string | null;
  mimeType: string;
  /** Pages (PDF), slides (PPTX/ODP), 1 for other files; null for video transcripts. */
  pages: number | null;
  segments: Segment[];
  /**
   * Chunks written, when the extraction process indexed the document itself
   * (`ExtractionOptions.index`); `blocks` and `segments` are then left empty, as with `markdownOnly`.
   */
  chunkCount?: number;
  /** What a short document indexed there repeats of itself, found from the chunks it just wrote. */
  repeats?: DocumentRepeats;
}

/** How a source is extracted, besides its budgets. */
export interface ExtractionOptions {
  /** Whose source it is: file extraction takes turns across tenants. */
  tenant?: string;
  /** Index the result as this document, in the extraction process (files and web pages). */
  index?: IndexJob;
  /** Only the markdown and metadata are wanted: the blocks and segments stay in the extraction process. */
  markdownOnly?: boolean;
  /** The extraction processes to parse files in; the server builds one at start-up (src/server.ts). */
  pool?: FileJobRunner;
}

/** One file for an extraction process (extract-file.ts runs it there). */
export interface FileJob {
  path: string;
  filename: string;
  kind: FileKind;
  limits: FileLimits;
  /** HTML: the page's URL, so relative links become absolute. */
  baseUrl?: string;
  /** Text and HTML: the charset an HTTP header declared. */
  charset?: string;
  /** Index the result here, rather than on the server's event loop and in its memory. */
  index?: IndexJob;
  /** Return the markdown and metadata only (a 50 MB text is ~200 MB more of blocks and segments). */
  markdownOnly?: boolean;
}

/** Runs file jobs in extraction processes: pool.ts's ExtractionPool. */
export interface FileJobRunner {
  /** `tenant` names whose turn it is in the queue. */
  run(job: FileJob, timeoutMs: number, tenant?: string): Promise<ExtractResult>;
}

/** What an extraction process needs to index a document itself (src/retrieval/worker-index.ts). */
export interface IndexJob {
  dataDir: string;
  /** DATABASE_URL: the chunks are written to PostgreSQL; null, to the SQLite database in `dataDir`. */
  databaseUrl: string | null;
  /** The server's embedder settings: the process makes the same embedder. */
  embedder: EmbedderConfig;
  tenantId: string;
  userId: string | null;
  documentId: string;
  spaceId: string | null;
}

export type FileKind = "pdf" | "docx" | "pptx" | "ppt" | "odt" | "odp" | "txt" | "md" | "html" | "png" | "jpg" | "webp";

export interface DetectedKind {
  kind: FileKind;
  mimeType: string;
}

/** The settings extraction reads; a full Config satisfies it. */
export type IngestConfig = Pick<
  Config,
  | "dataDir"
  | "outboundAllow"
  | "youtubeBaseUrl"
  | "ingestWorkers"
  | "ingestTimeoutMs"
  | "ingestMaxPdfPages"
  | "ingestMaxOcrPages"
  | "ingestMaxImagePixels"
  | "ingestMaxXmlMb"
  | "ingestWorkerMemoryMb"
  | "ingestTenantWorkers"
>;

/** Limits that travel with a file into the extraction worker. */
export interface FileLimits {
  maxPdfPages: number;
  maxOcrPages: number;
  /** Width x height of the largest image decoded, standalone or inside a PDF. */
  maxImagePixels: number;
  /** Decompressed XML read from one office archive, in bytes. */
  maxXmlBytes: number;
}
