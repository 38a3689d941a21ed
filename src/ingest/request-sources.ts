/**
 * The sources of one ingestion request (extract, process): uploaded files, video URLs and page
 * URLs, in that order. Every file's type is detected before any work is done, so an unsupported
 * one fails the whole request (415) while other problems (an empty file) stay with that file.
 */
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { assertExtractable, detectFileKind } from "./detect.ts";
import { extractFile, extractUrl } from "./index.ts";
import type { DetectedKind, ExtractionOptions, ExtractResult, IngestConfig } from "./types.ts";
import { extractYoutube } from "./youtube.ts";

export type RequestSource =
  | { type: "file"; path: string; filename: string; detected: DetectedKind | AppError }
  | { type: "youtube" | "web"; url: string };

export interface RequestSourcesInput {
  files: { path: string; filename: string }[];
  youtubeUrls: string[];
  webUrls: string[];
}

export async function requestSources(input: RequestSourcesInput): Promise<RequestSource[]> {
  if (input.files.length + input.youtubeUrls.length + input.webUrls.length === 0) {
    throw new AppError("BAD_REQUEST", "No source given: send at least one of files, youtube_urls or web_urls");
  }
  const files = await Promise.all(
    input.files.map(async (f): Promise<RequestSource> => {
      try {
        const detected = await detectFileKind(f.path, f.filename);
        assertExtractable(detected.kind, f.filename);
        return { type: "file", path: f.path, filename: f.filename, detected };
      } catch (err) {
        if (err instanceof AppError && err.status !== 415)
          return { type: "file", path: f.path, filename: f.filename, detected: err };
        throw err;
      }
    }),
  );
  return [
    ...files,
    ...input.youtubeUrls.map((url) => ({ type: "youtube" as const, url })),
    ...input.webUrls.map((url) => ({ type: "web" as const, url })),
  ];
}

export const sourceName = (s: RequestSource): string => (s.type === "file" ? s.filename : s.url);

/** A source's markdown; a file whose detection failed throws that failure. */
export async function extractSource(
  source: RequestSource,
  cfg: IngestConfig,
  opts: ExtractionOptions = {},
): Promise<ExtractResult & { sourceType: RequestSource["type"] }> {
  if (source.type === "file") {
    if (source.detected instanceof AppError) throw source.detected;
    return {
      ...(await extractFile(source.path, source.filename, cfg, { ...opts, kind: source.detected })),
      sourceType: "file",
    };
  }
  // A URL sent as a video is read as one even if its address does not look like YouTube's.
  if (source.type === "youtube") return { ...(await extractYoutube(source.url, cfg)), sourceType: "youtube" };
  return extractUrl(source.url, cfg, opts);
}

/** The message shown for a failed source: ours as is; anything unexpected is logged and summarised. */
export function failureMessage(err: unknown, log: Logger, source: RequestSource): string {
  if (err instanceof AppError) return err.message;
  const name = sourceName(source);
  log.error("source processing failed unexpectedly", {
    source: name,
    error: err instanceof Error ? err.message : String(err),
  });
  return `"${name}" could not be processed because of an internal error`;
}
