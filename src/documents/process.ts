/**
 * POST /v2/documents/process, the domain part: every source of the request (files, videos, web
 * pages) extracted, chunked and indexed in parallel, each ending `ready` with its chunk count or
 * `error` with the reason. Only an unsupported file type (415) fails the whole request, and it is
 * found before anything is stored.
 */
import pLimit from "p-limit";
import { AppError, isStorageFull, storageFull } from "../errors.ts";
import { collectAfterLargeText } from "../ingest/large-text.ts";
import {
  extractSource,
  failureMessage,
  type RequestSource,
  requestSources,
  sourceName,
} from "../ingest/request-sources.ts";
import { deleteBlob, putBlob } from "../media/blob-store.ts";
import { indexDocument, indexJob } from "../retrieval/index.ts";
import type { Services } from "../services.ts";
import {
  createDocumentRecord,
  type DocumentOwner,
  loadOwnedDocument,
  markDocumentError,
  markDocumentReady,
  removeDocumentRows,
  toDocumentResource,
} from "./records.ts";

export interface ProcessInput {
  files: { path: string; filename: string }[];
  youtubeUrls: string[];
  webUrls: string[];
  spaceId: string | null;
}

/** Processes one source; true when it failed because the disk is full. */
async function processOne(svc: Services, owner: DocumentOwner, id: string, source: RequestSource): Promise<boolean> {
  const name = sourceName(source);
  let blobKey: string | null = null;
  try {
    // The original is kept before extraction, so even a file that fails to parse can be downloaded and inspected.
    if (source.type === "file" && !(source.detected instanceof AppError))
      blobKey = (await putBlob(svc.cfg, source.path, { ext: source.detected.kind })).key;
    const index = indexJob(svc, { tenantId: owner.tenantId, userId: owner.userId, documentId: id });
    const result = await extractSource(source, svc.cfg, { tenant: owner.tenantId, index });
    if (!result.markdown.trim()) {
      markDocumentError(svc.sqlite, id, `No text could be extracted from "${name}"`, blobKey);
      return false;
    }
    // Files and web pages were indexed in their extraction process; video transcripts are indexed here.
    const chunkCount =
      result.chunkCount ??
      (await indexDocument(svc, { tenantId: owner.tenantId, userId: owner.userId, documentId: id, extract: result }))
        .chunkCount;
    const mimeType =
      source.type === "file" && !(source.detected instanceof AppError) ? source.detected.mimeType : result.mimeType;
    markDocumentReady(svc.sqlite, id, {
      blobKey,
      mimeType,
      pages: result.pages,
      markdown: result.markdown,
      title: result.title,
      chunkCount,
    });
    collectAfterLargeText(result.markdown.length);
    return false;
  } catch (err) {
    if (!isStorageFull(err)) {
      markDocumentError(svc.sqlite, id, failureMessage(err, svc.log, source), blobKey);
      return false;
    }
    svc.log.error("the disk is full: a source could not be stored", {
      document_id: id,
      error: err instanceof Error ? err.message : String(err),
    });
    await discardDocument(svc, id, blobKey);
    return true;
  }
}

// How often removing a stopped document is tried again while the database itself has no room.
const DISCARD_RETRY_MS = 2_000;

/**
 * A source the full disk stopped is removed rather than left `processing` or half-indexed: its
 * original, chunks and record. SQLite needs room even to delete (its write-ahead log), so when the
 * database is full too the removal is tried again every few seconds (the request's own upload
 * files, removed as it ends, usually make that room); a stop before then leaves the record to the
 * next start, which marks it interrupted.
 */
async function discardDocument(svc: Services, id: string, blobKey: string | null): Promise<void> {
  if (blobKey) await deleteBlob(svc.cfg, blobKey);
  const attempt = () => {
    try {
      removeDocumentRows(svc.sqlite, id);
    } catch (err) {
      if (isStorageFull(err)) setTimeout(attempt, DISCARD_RETRY_MS).unref();
      else
        svc.log.error("a document stopped by the full disk could not be removed", {
          document_id: id,
          error: err instanceof Error ? err.message : String(err),
        });
    }
  };
  attempt();
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
  const full = await Promise.all(sources.map((s, i) => limit(() => processOne(svc, owner, ids[i]!, s))));
  if (full.some(Boolean)) {
    // The sources that made it are kept and named, so the client knows what not to send again.
    const stored = ids
      .filter((_, i) => !full[i])
      .map((id) => toDocumentResource(loadOwnedDocument(svc.sqlite, owner, id)));
    throw storageFull({ stored_documents: stored.map((d) => ({ id: d.id, filename: d.filename, status: d.status })) });
  }
  const documents = ids.map((id) => toDocumentResource(loadOwnedDocument(svc.sqlite, owner, id)));
  const ready = documents.filter((d) => d.status === "ready").length;
  return { documents, count: documents.length, ready, errored: documents.length - ready };
}
