/**
 * The sources of one upload request (process, extract, generate-from-files): uploaded files, video
 * URLs and page URLs, in that order, checked by one rule before anything is stored. A file whose
 * type is unsupported or mismatched fails the whole request (415, naming it); anything else wrong
 * with one source (an empty file, a page address among the videos, a corrupt file) is that
 * source's failure, found here or when it is extracted, and the others go on.
 */
import { AppError } from "../errors.ts";
import { assertExtractable, type DetectedKind, detectFileKind, type Source } from "../ingest/index.ts";
import type { Logger } from "../log.ts";

/** A source of the request; a file carries its detected kind, or the failure detection found. */
export type RequestSource =
  | { type: "file"; path: string; filename: string; detected: DetectedKind | AppError }
  | { type: "youtube" | "web"; url: string };

export interface RequestSourcesInput {
  files: { path: string; filename: string }[];
  youtubeUrls: string[];
  webUrls: string[];
}

/** The one detection rule: a file's kind, or why it cannot be read (415 when its type is not supported). */
export async function detectFile(path: string, filename: string): Promise<DetectedKind | AppError> {
  try {
    const detected = await detectFileKind(path, filename);
    assertExtractable(detected.kind, filename);
    return detected;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

export async function requestSources(input: RequestSourcesInput): Promise<RequestSource[]> {
  if (input.files.length + input.youtubeUrls.length + input.webUrls.length === 0) {
    throw new AppError("BAD_REQUEST", "No source given: send at least one of files, youtube_urls or web_urls");
  }
  const files = await Promise.all(
    input.files.map(async (f): Promise<RequestSource> => {
      const detected = await detectFile(f.path, f.filename);
      if (detected instanceof AppError && detected.code === "UNSUPPORTED_MEDIA_TYPE") throw detected;
      return { type: "file", path: f.path, filename: f.filename, detected };
    }),
  );
  return [
    ...files,
    ...input.youtubeUrls.map((url) => ({ type: "youtube" as const, url })),
    ...input.webUrls.map((url) => ({ type: "web" as const, url })),
  ];
}

export const sourceName = (s: RequestSource): string => (s.type === "file" ? s.filename : s.url);

/** The detected kind of a file source, null for URLs and for files detection refused. */
export const detectedKind = (s: RequestSource): DetectedKind | null =>
  s.type === "file" && !(s.detected instanceof AppError) ? s.detected : null;

/** What to extract: the source as the ingest library takes it; a file whose detection failed throws that failure. */
export function toIngestSource(s: RequestSource): Source {
  if (s.type !== "file") return s;
  if (s.detected instanceof AppError) throw s.detected;
  return { type: "file", path: s.path, filename: s.filename, kind: s.detected };
}

/** The message shown for a failed source: ours as is; anything unexpected is logged and summarised. */
export function failureMessage(err: unknown, log: Logger, name: string): string {
  if (err instanceof AppError) return err.message;
  log.error("source processing failed unexpectedly", {
    source: name,
    error: err instanceof Error ? err.message : String(err),
  });
  return `"${name}" could not be processed because of an internal error`;
}
