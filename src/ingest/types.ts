/** The shapes every extractor returns, and the settings extraction reads. */
import type { Config } from "../config.ts";

/** One citable piece of a document: a page, a slide, a caption block or a heading section. */
export interface Segment {
  markdown: string;
  page?: number | null;
  slide?: number | null;
  /** Seconds from the start of a video. */
  timestamp?: number | null;
  heading?: string | null;
}

export interface ExtractResult {
  /** All segments joined with a blank line. */
  markdown: string;
  title: string | null;
  mimeType: string;
  /** Pages (PDF), slides (PPTX/ODP), 1 for other files; null for video transcripts. */
  pages: number | null;
  segments: Segment[];
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
>;

/** Limits that travel with a file into the extraction worker. */
export interface FileLimits {
  maxPdfPages: number;
  maxOcrPages: number;
}
