/**
 * Document records, the one owner of the documents table: what process, extract and course
 * generation create (documents/ingest.ts fills them in), and for indexed documents (kind 'index')
 * their list, ownership checks and deletion. A document belongs to one learner of one tenant; to anyone
 * else it does not exist (404), so ids cannot be probed across learners or tenants.
 */
import type { Database } from "bun:sqlite";
import { AppError } from "../errors.ts";
import { decodeCursor, encodeCursor } from "../keyset-cursor.ts";
import { deleteBlob } from "../media/blob-store.ts";
import { deleteChunksOfSync } from "../retrieval/index.ts";
import { newId, nowIso } from "../util.ts";
import { type DocumentRepeats, documentDetails, type RepeatSummary } from "./repeated-sections.ts";

export interface DocumentOwner {
  tenantId: string;
  userId: string;
}

export type SourceType = "file" | "youtube" | "web";

export interface DocumentRow {
  id: string;
  tenant_id: string;
  user_id: string | null;
  space_id: string | null;
  filename: string;
  source_type: SourceType;
  source_url: string | null;
  blob_key: string | null;
  mime_type: string | null;
  pages: number | null;
  char_count: number;
  status: "processing" | "ready" | "error";
  error: string | null;
  chunk_count: number;
  /** What an extract record was billed; 0 for indexed documents. */
  billed_micros: number;
  /** JSON of the text it repeats (RepeatSummary), null until checked. */
  repeats: string | null;
  created_at: string;
}

/** Who a new record belongs to: an extract record may have no learner. */
export interface RecordOwner {
  tenantId: string;
  userId: string | null;
}

/** A new record, `processing` until its source is ingested. */
export function createDocumentRecord(
  sqlite: Database,
  owner: RecordOwner,
  d: {
    filename: string;
    sourceType: SourceType;
    sourceUrl?: string | null;
    spaceId?: string | null;
    /** extract: recorded markdown, never indexed; index (the default): indexed for query and courses. */
    kind?: "index" | "extract";
    blobKey?: string | null;
    mimeType?: string | null;
  },
): string {
  const id = newId();
  sqlite.run(
    `INSERT INTO documents (id, tenant_id, user_id, space_id, kind, filename, source_type, source_url, blob_key, mime_type, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'processing', ?)`,
    [
      id,
      owner.tenantId,
      owner.userId,
      d.spaceId ?? null,
      d.kind ?? "index",
      d.filename,
      d.sourceType,
      d.sourceUrl ?? null,
      d.blobKey ?? null,
      d.mimeType ?? null,
      nowIso(),
    ],
  );
  return id;
}

export function markDocumentReady(
  sqlite: Database,
  id: string,
  r: {
    blobKey: string | null;
    /** What the source turned out to be (a URL sent as a page may be a video); kept as created when omitted. */
    sourceType?: SourceType;
    mimeType: string;
    pages: number | null;
    markdown: string;
    title: string | null;
    chunkCount: number;
  },
): void {
  sqlite.run(
    `UPDATE documents SET status = 'ready', error = NULL, blob_key = coalesce(?, blob_key), source_type = coalesce(?, source_type), mime_type = ?, pages = ?,
            char_count = ?, markdown = ?, title = ?, chunk_count = ?
      WHERE id = ?`,
    [r.blobKey, r.sourceType ?? null, r.mimeType, r.pages, r.markdown.length, r.markdown, r.title, r.chunkCount, id],
  );
}

/** What the document repeats of itself: its summary for the details, and the chunks courses leave out. */
export function setDocumentRepeats(sqlite: Database, id: string, repeats: DocumentRepeats): void {
  const { chunk_ids, ...summary } = repeats;
  sqlite.run("UPDATE documents SET repeats = ?, repeated_chunks = ? WHERE id = ?", [
    JSON.stringify(summary),
    JSON.stringify(chunk_ids),
    id,
  ]);
}

/** What an extract record was billed (its usage event is written in the same transaction). */
export function setBilledMicros(sqlite: Database, id: string, micros: number): void {
  sqlite.run("UPDATE documents SET billed_micros = ? WHERE id = ?", [micros, id]);
}

/**
 * Documents a stopped or crashed server left in 'processing' while a request waited on them. That
 * request was never answered, so nothing acknowledged is lost: they end as errors that say to send
 * the source again. A course's documents are left alone: its resumed job ingests them. Call once at
 * start, before serving (one server per data directory, so nothing else is processing then).
 */
export function failInterruptedDocuments(sqlite: Database): number {
  const ids = sqlite
    .query<{ id: string }, []>(
      "SELECT id FROM documents WHERE status = 'processing' AND id NOT IN (SELECT document_id FROM course_documents)",
    )
    .all()
    .map((r) => r.id);
  for (const id of ids)
    markDocumentError(sqlite, id, "Processing was interrupted by a server restart; send the source again");
  return ids.length;
}

export function markDocumentError(sqlite: Database, id: string, message: string, blobKey: string | null = null): void {
  // An extraction process stopped while indexing (or a server stopped mid-batch) may have written some chunks.
  deleteChunksOfSync(sqlite, { documentId: id, chapterId: null });
  sqlite.run(
    "UPDATE documents SET status = 'error', error = ?, blob_key = coalesce(?, blob_key), chunk_count = 0 WHERE id = ?",
    [message, blobKey, id],
  );
}

const COLUMNS =
  "id, tenant_id, user_id, space_id, filename, source_type, source_url, blob_key, mime_type, pages, char_count, status, error, chunk_count, billed_micros, repeats, created_at";

/** A record by id, whoever owns it (the caller made it in this request). */
export function loadDocument(sqlite: Database, id: string): DocumentRow {
  const row = sqlite.query<DocumentRow, [string]>(`SELECT ${COLUMNS} FROM documents WHERE id = ?`).get(id);
  if (!row) throw new AppError("DOCUMENT_NOT_FOUND", "Document not found");
  return row;
}

export function loadOwnedDocument(sqlite: Database, owner: DocumentOwner, id: string): DocumentRow {
  const row = sqlite
    .query<DocumentRow, [string, string, string]>(
      `SELECT ${COLUMNS} FROM documents WHERE id = ? AND tenant_id = ? AND user_id = ? AND kind = 'index'`,
    )
    .get(id, owner.tenantId, owner.userId);
  if (!row) throw new AppError("DOCUMENT_NOT_FOUND", "Document not found");
  return row;
}

/** 404 naming the ids that are not the caller's indexed documents. */
export function assertOwnedDocuments(sqlite: Database, owner: DocumentOwner, ids: string[]): void {
  const found = new Set(
    sqlite
      .query<{ id: string }, [string, string, string]>(
        `SELECT id FROM documents WHERE tenant_id = ? AND user_id = ? AND kind = 'index'
           AND id IN (SELECT value FROM json_each(?))`,
      )
      .all(owner.tenantId, owner.userId, JSON.stringify(ids))
      .map((r) => r.id),
  );
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new AppError(
      "DOCUMENT_NOT_FOUND",
      `${missing.length === 1 ? "Document" : "Documents"} not found: ${missing.join(", ")}`,
    );
  }
}

/** The document as the API shows it: chunk_count only when ready, error only when failed. */
export function toDocumentResource(d: DocumentRow) {
  return {
    id: d.id,
    filename: d.filename,
    source_type: d.source_type,
    status: d.status,
    ...(d.status === "ready" ? { chunk_count: d.chunk_count } : {}),
    ...(d.status === "error" ? { error: d.error ?? "Processing failed" } : {}),
    space_id: d.space_id,
    mime_type: d.mime_type,
    pages: d.pages,
    char_count: d.char_count,
    created_at: d.created_at,
    ...(d.status === "ready" && d.repeats ? { details: documentDetails(JSON.parse(d.repeats) as RepeatSummary) } : {}),
  };
}

/** The caller's indexed documents, newest first, keyset-paginated like GET /v2/courses. */
export function listDocuments(
  sqlite: Database,
  owner: DocumentOwner,
  opts: { limit: number; cursor?: string | null; spaceId?: string | null },
) {
  const after = opts.cursor ? decodeCursor(opts.cursor) : null;
  const rows = sqlite
    .query<DocumentRow, (string | number | null)[]>(
      `SELECT ${COLUMNS} FROM documents
        WHERE tenant_id = ? AND user_id = ? AND kind = 'index' AND (? IS NULL OR space_id = ?)
          AND (? IS NULL OR created_at < ? OR (created_at = ? AND id < ?))
        ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .all(
      owner.tenantId,
      owner.userId,
      opts.spaceId ?? null,
      opts.spaceId ?? null,
      after?.createdAt ?? null,
      after?.createdAt ?? null,
      after?.createdAt ?? null,
      after?.id ?? null,
      opts.limit + 1,
    );
  const hasMore = rows.length > opts.limit;
  const page = hasMore ? rows.slice(0, opts.limit) : rows;
  const last = page[page.length - 1];
  return {
    data: page.map(toDocumentResource),
    pagination: {
      limit: opts.limit,
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor(last.created_at, last.id) : null,
    },
  };
}

/**
 * Deletes an indexed document: its chunks (whose triggers take the FTS rows and vectors along),
 * its course links and record in one transaction, then its stored original.
 */
export async function deleteDocument(
  svc: { sqlite: Database; cfg: { dataDir: string } },
  owner: DocumentOwner,
  id: string,
): Promise<void> {
  const doc = loadOwnedDocument(svc.sqlite, owner, id);
  removeDocumentRows(svc.sqlite, id);
  if (doc.blob_key) await deleteBlob(svc.cfg, doc.blob_key);
}

/** The records of `ids`, oldest first (a course's sources, in the order they were stored). */
export function recordsOldestFirst(sqlite: Database, ids: readonly string[]): DocumentRow[] {
  return sqlite
    .query<DocumentRow, [string]>(
      `SELECT ${COLUMNS} FROM documents WHERE id IN (SELECT value FROM json_each(?)) ORDER BY created_at, rowid`,
    )
    .all(JSON.stringify(ids));
}

/** Id, name and status of records, in the order of `ids` (what a stopped request had stored). */
export function recordSummaries(sqlite: Database, ids: string[]): { id: string; filename: string; status: string }[] {
  const rows = sqlite
    .query<{ id: string; filename: string; status: string }, [string]>(
      "SELECT id, filename, status FROM documents WHERE id IN (SELECT value FROM json_each(?))",
    )
    .all(JSON.stringify(ids));
  return ids.flatMap((id) => rows.filter((r) => r.id === id));
}

/** A document's chunks (their triggers take the FTS rows and vectors along), course links and record, in one transaction. */
export function removeDocumentRows(sqlite: Database, id: string): void {
  sqlite.transaction(() => {
    deleteChunksOfSync(sqlite, { documentId: id, chapterId: null });
    sqlite.run("DELETE FROM documents WHERE id = ?", [id]);
  })();
}
