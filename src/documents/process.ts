/**
 * POST /v2/documents/process, the domain part: every source of the request (files, videos, web
 * pages) extracted, chunked and indexed in parallel, each ending `ready` with its chunk count or
 * `error` with the reason. Only an unsupported file type (415) fails the whole request, and it is
 * found before anything is stored.
 */
import pLimit from "p-limit";
import { AppError, badRequest } from "../errors.ts";
import { assertExtractable, detectFileKind } from "../ingest/detect.ts";
import { extractFile, extractUrl } from "../ingest/index.ts";
import type { DetectedKind, ExtractResult } from "../ingest/types.ts";
import { extractYoutube } from "../ingest/youtube.ts";
import { putBlob } from "../media/blob-store.ts";
import { indexDocument } from "../retrieval/index.ts";
import type { Services } from "../services.ts";
import {
  createDocumentRecord,
  loadOwnedDocument,
  markDocumentError,
  markDocumentReady,
  toDocumentResource,
  type DocumentOwner,
} from "./records.ts";

export interface ProcessInput {
  files: { path: string; filename: string }[];
  youtubeUrls: string[];
  webUrls: string[];
  spaceId: string | null;
}

type Source =
  | { type: "file"; path: string; filename: string; detected: DetectedKind | AppError }
  | { type: "youtube" | "web"; url: string };

/** Every file's type first: an unsupported one is a 415 for the request; other problems (an empty file) stay with that file. */
async function detectFiles(files: ProcessInput["files"]): Promise<Source[]> {
  return Promise.all(
    files.map(async (f): Promise<Source> => {
      try {
        const detected = await detectFileKind(f.path, f.filename);
        assertExtractable(detected.kind, f.filename);
        return { type: "file", path: f.path, filename: f.filename, detected };
      } catch (err) {
        if (err instanceof AppError && err.status !== 415) return { type: "file", path: f.path, filename: f.filename, detected: err };
        throw err;
      }
    }),
  );
}

function messageOf(svc: Services, err: unknown, source: string): string {
  if (err instanceof AppError) return err.message;
  svc.log.error("document processing failed unexpectedly", { source, error: err instanceof Error ? err.message : String(err) });
  return `"${source}" could not be processed because of an internal error`;
}

async function extract(svc: Services, source: Source): Promise<ExtractResult> {
  if (source.type === "file") {
    if (source.detected instanceof AppError) throw source.detected;
    return extractFile(source.path, source.filename, svc.cfg, { kind: source.detected });
  }
  return source.type === "youtube" ? extractYoutube(source.url, svc.cfg) : extractUrl(source.url, svc.cfg);
}

async function processOne(svc: Services, owner: DocumentOwner, id: string, source: Source): Promise<void> {
  const name = source.type === "file" ? source.filename : source.url;
  // The original is kept before extraction, so even a file that fails to parse can be downloaded and inspected.
  const blobKey =
    source.type === "file" && !(source.detected instanceof AppError)
      ? (await putBlob(svc.cfg, source.path, { ext: source.detected.kind })).key
      : null;
  try {
    const result = await extract(svc, source);
    if (!result.markdown.trim()) {
      markDocumentError(svc.sqlite, id, `No text could be extracted from "${name}"`, blobKey);
      return;
    }
    const { chunkCount } = await indexDocument(svc, { tenantId: owner.tenantId, userId: owner.userId, documentId: id, extract: result });
    const mimeType = source.type === "file" && !(source.detected instanceof AppError) ? source.detected.mimeType : result.mimeType;
    markDocumentReady(svc.sqlite, id, { blobKey, mimeType, pages: result.pages, markdown: result.markdown, chunkCount });
  } catch (err) {
    markDocumentError(svc.sqlite, id, messageOf(svc, err, name), blobKey);
  }
}

export async function processDocuments(svc: Services, owner: DocumentOwner, input: ProcessInput) {
  if (input.files.length + input.youtubeUrls.length + input.webUrls.length === 0) {
    throw badRequest("No source given: send at least one of files, youtube_urls or web_urls");
  }
  const sources: Source[] = [
    ...(await detectFiles(input.files)),
    ...input.youtubeUrls.map((url) => ({ type: "youtube" as const, url })),
    ...input.webUrls.map((url) => ({ type: "web" as const, url })),
  ];
  // Records first, in request order, so the response lists sources as they were sent.
  const ids = sources.map((s) =>
    createDocumentRecord(svc.sqlite, owner, {
      filename: s.type === "file" ? s.filename : s.url,
      sourceType: s.type,
      sourceUrl: s.type === "file" ? null : s.url,
      spaceId: input.spaceId,
    }),
  );
  const limit = pLimit(svc.cfg.ingestConcurrency);
  await Promise.all(sources.map((s, i) => limit(() => processOne(svc, owner, ids[i]!, s))));
  const documents = ids.map((id) => toDocumentResource(loadOwnedDocument(svc.sqlite, owner, id)));
  const ready = documents.filter((d) => d.status === "ready").length;
  return { documents, count: documents.length, ready, errored: documents.length - ready };
}
