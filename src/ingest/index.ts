/**
 * The front door of ingestion: every source to markdown. Files are detected by their bytes and
 * parsed in an extraction process under time, memory and size budgets; URLs are fetched through the SSRF guard.
 *
 *   detectFileKind(path, filename)             -> { kind, mimeType }   (415 naming the file)
 *   extractFile(path, filename, cfg?, opts?)   -> ExtractResult
 *   extractUrl(url, cfg?, opts?)               -> ExtractResult & { sourceType: "web" | "youtube" }
 *   extractSource(source, cfg, opts?)          -> ExtractResult & { sourceType }   (a file, video or page)
 *   isYoutubeUrl(url)                          -> boolean
 *
 * `cfg` is the server Config (or the IngestConfig part of it); read from the environment when
 * omitted. `opts.pool` is the extraction pool to parse files in (the server's); without one, a pool
 * of the library's own is used until `stopExtractionWorkers`.
 *
 * Failures are AppErrors with a message that names the source (4xx for a bad source, 502/504
 * when a remote site fails), meant to be shown as that source's error.
 */
import { loadConfig } from "../config.ts";
import { assertExtractable, detectFileKind } from "./detect.ts";
import { runExtraction } from "./run-extraction.ts";
import type { DetectedKind, ExtractionOptions, ExtractResult, IngestConfig } from "./types.ts";
import { isYoutubeUrl } from "./youtube-url.ts";

export { assertExtractable, detectFileKind, MIME_TYPES, noTextFound } from "./detect.ts";
export { createExtractionPool, ExtractionPool, sharesTurns } from "./pool.ts";
export { stopExtractionWorkers } from "./run-extraction.ts";
export type {
  DetectedKind,
  ExtractionOptions,
  ExtractResult,
  FileJobRunner,
  FileKind,
  IngestConfig,
  Segment,
} from "./types.ts";
export { isYoutubeUrl, youtubeVideoId } from "./youtube-url.ts";

export interface ExtractFileOptions extends ExtractionOptions {
  /** The kind from an earlier detectFileKind call, so the file is not sniffed twice. */
  kind?: DetectedKind;
}

export async function extractFile(
  path: string,
  filename: string,
  cfg: IngestConfig = loadConfig(),
  opts: ExtractFileOptions = {},
): Promise<ExtractResult> {
  const { kind } = opts.kind ?? (await detectFileKind(path, filename));
  assertExtractable(kind, filename);
  return runExtraction({ path, filename, kind, index: opts.index, markdownOnly: opts.markdownOnly }, cfg, opts);
}

export async function extractUrl(
  url: string,
  cfg: IngestConfig = loadConfig(),
  opts: ExtractionOptions = {},
): Promise<ExtractResult & { sourceType: "web" | "youtube" }> {
  // The HTML and XML parsers load on first use, so an idle server does not carry them.
  if (isYoutubeUrl(url)) {
    const { extractYoutube } = await import("./youtube.ts");
    return { ...(await extractYoutube(url, cfg)), sourceType: "youtube" };
  }
  const { extractWebPage } = await import("./web.ts");
  return { ...(await extractWebPage(url, cfg, opts)), sourceType: "web" };
}

/** A source as sent: a file (with its kind when already detected), a video URL or a page URL. */
export type Source =
  | { type: "file"; path: string; filename: string; kind?: DetectedKind }
  | { type: "youtube" | "web"; url: string };

export async function extractSource(
  source: Source,
  cfg: IngestConfig,
  opts: ExtractionOptions = {},
): Promise<ExtractResult & { sourceType: Source["type"] }> {
  if (source.type === "file") {
    return {
      ...(await extractFile(source.path, source.filename, cfg, { ...opts, kind: source.kind })),
      sourceType: "file",
    };
  }
  // A URL sent as a video is read as one (a page address is that source's INVALID_URL).
  if (source.type === "youtube") {
    const { extractYoutube } = await import("./youtube.ts");
    return { ...(await extractYoutube(source.url, cfg)), sourceType: "youtube" };
  }
  return extractUrl(source.url, cfg, opts);
}
