/**
 * An upload request's sources (process, extract) ingested as documents: one record per source,
 * created in request order so the response lists them as they were sent, then each ingested
 * (a bounded number at once) to ready or error. A full disk stops the request with 507 naming
 * what was stored; what it stopped is removed rather than left half done.
 */
import pLimit from "p-limit";
import { isoAfter, systemClock } from "../clock.ts";
import { writeWhenFree } from "../db/write-when-free.ts";
import { isStorageFull, storageFull } from "../errors.ts";
import { sharesTurns } from "../ingest/index.ts";
import { deleteBlob } from "../media/blob-store.ts";
import { type IngestDeps, type IngestOptions, ingestDocument } from "./ingest.ts";
import { createDocumentRecord, type RecordOwner, recordSummaries, removeDocumentRows } from "./records.ts";
import { detectedKind, type RequestSource, type RequestSourcesInput, requestSources, sourceName } from "./sources.ts";

export interface UploadInput extends RequestSourcesInput {
  spaceId: string | null;
}

/** The records made, in request order. */
export async function ingestUploads(
  svc: IngestDeps,
  owner: RecordOwner,
  input: UploadInput,
  opts: IngestOptions & { kind: "index" | "extract" },
): Promise<string[]> {
  const sources = await requestSources(input);
  // One commit for the request's records, not one per file (a batch of abstracts is ten).
  const ids = await writeWhenFree(svc.sql, async (tx) => {
    const made: string[] = [];
    for (const s of sources)
      made.push(
        await createDocumentRecord(tx, owner, {
          kind: opts.kind,
          filename: sourceName(s),
          sourceType: s.type,
          sourceUrl: s.type === "file" ? null : s.url,
          spaceId: input.spaceId,
          mimeType: detectedKind(s)?.mimeType ?? null,
          ingestNode: svc.node,
          ingestLeaseUntil: isoAfter(systemClock, svc.cfg.jobLeaseSeconds),
        }),
      );
    return made;
  });
  const limit = pLimit(svc.cfg.ingestConcurrency);
  const ingest = (s: RequestSource, i: number) => ingestDocument(svc, { id: ids[i]!, owner }, s, opts);
  // Small text files reach the extraction pool together, which runs them in shared turns; the
  // request's concurrency paces the other sources.
  // Settled, not all: a source that fails outright must not skip the discarding of the others.
  const settled = await Promise.allSettled(
    sources.map((s, i) =>
      s.type === "file" && !(s.detected instanceof Error) && sharesTurns(s.detected.kind, s.path)
        ? ingest(s, i)
        : limit(() => ingest(s, i)),
    ),
  );
  const stopped: string[] = [];
  for (const [i, result] of settled.entries()) {
    if (result.status !== "fulfilled" || result.value.status !== "storage_full") continue;
    const outcome = result.value;
    stopped.push(ids[i]!);
    svc.log.error("the disk is full: a source could not be stored", {
      document_id: ids[i],
      error: outcome.error instanceof Error ? outcome.error.message : String(outcome.error),
    });
    await discardDocument(svc, ids[i]!, outcome.blobKey);
  }
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  if (stopped.length === 0) return ids;
  // The sources that made it are kept and named, so the client knows what not to send again.
  throw storageFull({
    stored_documents: await recordSummaries(
      svc.sql,
      ids.filter((id) => !stopped.includes(id)),
    ),
  });
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
async function discardDocument(svc: IngestDeps, id: string, blobKey: string | null): Promise<void> {
  if (blobKey) await deleteBlob(svc.cfg, blobKey);
  const attempt = async () => {
    try {
      await removeDocumentRows(svc.sql, id);
    } catch (err) {
      if (isStorageFull(err)) setTimeout(attempt, DISCARD_RETRY_MS).unref();
      else
        svc.log.error("a document stopped by the full disk could not be removed", {
          document_id: id,
          error: err instanceof Error ? err.message : String(err),
        });
    }
  };
  await attempt();
}
