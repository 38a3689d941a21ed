/**
 * The one ingestion of a document, whichever endpoint made its record (process, extract, a course
 * from files or URLs): keep the uploaded original → extract in the extraction pool → index (unless
 * only markdown was asked for) → the record ends `ready`, or `error` with the reason. Every failure
 * of the source becomes that record's error; only a full disk is handed back to the caller, which
 * decides what a stopped request keeps.
 */
import type { Config } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import { writeWhenFree } from "../db/write-when-free.ts";
import { isStorageFull } from "../errors.ts";
import { type ExtractionPool, extractSource, noTextFound } from "../ingest/index.ts";
import { collectAfterLargeText } from "../ingest/large-text.ts";
import type { Logger } from "../log.ts";
import { putBlob } from "../media/blob-store.ts";
import { type Embedder, indexDocument, indexJob } from "../retrieval/index.ts";
import { failDocument, markDocumentReady, type RecordOwner, type SourceType, setDocumentRepeats } from "./records.ts";
import { type DocumentThread, detectRepeats, REPEATS_NEARBY_CHUNKS } from "./repeated-sections.ts";
import { detectedKind, failureMessage, type RequestSource, sourceName, toIngestSource } from "./sources.ts";

/**
 * Ingesting a document: the extraction pool, the index (database and embedder), the blob store and
 * the log. The record's commit waits for SQLite's lock without holding the event loop
 * (`writeWhenFree`), where the extraction processes write the chunks beside it.
 */
export interface IngestDeps {
  cfg: Config;
  sql: Sql;
  /** The database's address (the SQLite file or a PostgreSQL URL), for reads in the engine's thread. */
  databaseAddress: string;
  /** The engine's thread, where a long document's repeats are found. */
  engineThread: DocumentThread;
  /** This node's id (the data-directory lock's), written on the records its requests ingest. */
  node: string;
  log: Logger;
  embedder: Embedder;
  extraction: ExtractionPool;
}

export interface IngestTarget {
  /** The record to fill in (created `processing` by records.ts). */
  id: string;
  owner: RecordOwner;
  /** Set when the original is stored already (a course's uploads); otherwise an uploaded file is stored here. */
  blobKey?: string | null;
}

export interface IngestOptions {
  /** Chunk and index the text for query and courses; otherwise only the markdown is kept (extract). */
  index: boolean;
  /** Runs in the transaction that marks the record ready (extract bills the source there). */
  onReady?: (
    tx: Sql,
    id: string,
    ready: { sourceType: SourceType; mimeType: string; pages: number | null },
  ) => Promise<void>;
}

export type IngestOutcome =
  | { status: "ready" | "error"; blobKey: string | null }
  /** The disk is full: the record is left as it was, for the caller to discard or mark. */
  | { status: "storage_full"; blobKey: string | null; error: unknown };

export async function ingestDocument(
  svc: IngestDeps,
  target: IngestTarget,
  source: RequestSource,
  opts: IngestOptions,
): Promise<IngestOutcome> {
  const name = sourceName(source);
  const detected = detectedKind(source);
  let blobKey = target.blobKey ?? null;
  try {
    // The original is kept before extraction, so even a file that fails to parse can be downloaded and inspected.
    if (source.type === "file" && detected && !blobKey)
      blobKey = (await putBlob(svc.cfg, source.path, { ext: detected.kind })).key;
    const owner = { tenantId: target.owner.tenantId, userId: target.owner.userId, documentId: target.id };
    const result = await extractSource(toIngestSource(source), svc.cfg, {
      tenant: target.owner.tenantId,
      pool: svc.extraction,
      ...(opts.index ? { index: await indexJob(svc, owner) } : { markdownOnly: true }),
    });
    if (!result.markdown.trim()) throw noTextFound(name);
    // Files and web pages were indexed in their extraction process; video transcripts are indexed here.
    const chunkCount = !opts.index
      ? 0
      : (result.chunkCount ?? (await indexDocument(svc, { ...owner, extract: result })).chunkCount);
    const ready = {
      sourceType: result.sourceType,
      mimeType: detected?.mimeType ?? result.mimeType,
      pages: result.pages,
    };
    // Checked once, where the chunks were just written, so every course of the document reads it:
    // a short file's by its extraction process; a long document's in the extractive engine's
    // thread, as it reads the whole text; a short transcript's here, where in the thread it would
    // wait behind any course being built.
    const repeats = !opts.index
      ? null
      : (result.repeats ??
        (chunkCount <= REPEATS_NEARBY_CHUNKS
          ? await detectRepeats(svc.sql, target.id)
          : await svc.engineThread.documentRepeats({ database: svc.databaseAddress, documentId: target.id })));
    // Extraction processes write beside the server: waiting for the lock must not hold its thread.
    await writeWhenFree(svc.sql, async (tx) => {
      if (repeats) await setDocumentRepeats(tx, target.id, repeats);
      await markDocumentReady(tx, target.id, {
        ...ready,
        blobKey,
        markdown: result.markdown,
        title: result.title,
        chunkCount,
      });
      await opts.onReady?.(tx, target.id, ready);
    });
    collectAfterLargeText(result.markdown.length);
    return { status: "ready", blobKey };
  } catch (err) {
    if (isStorageFull(err)) return { status: "storage_full", blobKey, error: err };
    try {
      await failDocument(svc, target.id, failureMessage(err, svc.log, name), blobKey);
    } catch (recordErr) {
      // Recording the failure needs room too (SQLite's write-ahead log): on a full disk the record is
      // discarded like any source the disk stopped, never left `processing`.
      if (isStorageFull(recordErr)) return { status: "storage_full", blobKey, error: recordErr };
      throw recordErr;
    }
    return { status: "error", blobKey };
  }
}
