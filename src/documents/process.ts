/**
 * POST /v2/documents/process, the domain part: every source of the request (files, videos, web
 * pages) extracted, chunked and indexed in parallel, each ending `ready` with its chunk count or
 * `error` with the reason. Only an unsupported file type (415) fails the whole request, and it is
 * found before anything is stored.
 */
import pLimit from "p-limit";
import { AppError } from "../errors.ts";
import { extractSource, failureMessage, type RequestSource, requestSources, sourceName } from "../ingest/request-sources.ts";
import { collectAfterLargeText } from "../ingest/large-text.ts";
import { putBlob } from "../media/blob-store.ts";
import { indexDocument, indexJob } from "../retrieval/index.ts";
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

async function processOne(svc: Services, owner: DocumentOwner, id: string, source: RequestSource): Promise<void> {
  const name = sourceName(source);
  // The original is kept before extraction, so even a file that fails to parse can be downloaded and inspected.
  const blobKey =
    source.type === "file" && !(source.detected instanceof AppError)
      ? (await putBlob(svc.cfg, source.path, { ext: source.detected.kind })).key
      : null;
  try {
    const index = indexJob(svc, { tenantId: owner.tenantId, userId: owner.userId, documentId: id });
    const result = await extractSource(source, svc.cfg, { tenant: owner.tenantId, index });
    if (!result.markdown.trim()) {
      markDocumentError(svc.sqlite, id, `No text could be extracted from "${name}"`, blobKey);
      return;
    }
    // Files and web pages were indexed in their extraction process; video transcripts are indexed here.
    const chunkCount =
      result.chunkCount ?? (await indexDocument(svc, { tenantId: owner.tenantId, userId: owner.userId, documentId: id, extract: result })).chunkCount;
    const mimeType = source.type === "file" && !(source.detected instanceof AppError) ? source.detected.mimeType : result.mimeType;
    markDocumentReady(svc.sqlite, id, { blobKey, mimeType, pages: result.pages, markdown: result.markdown, title: result.title, chunkCount });
    collectAfterLargeText(result.markdown.length);
  } catch (err) {
    markDocumentError(svc.sqlite, id, failureMessage(err, svc.log, source), blobKey);
  }
}

export async function processDocuments(svc: Services, owner: DocumentOwner, input: ProcessInput) {
  const sources = await requestSources(input);
  // Records first, in request order, so the response lists sources as they were sent.
  const ids = sources.map((s) =>
    createDocumentRecord(svc.sqlite, owner, {
      filename: sourceName(s),
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
