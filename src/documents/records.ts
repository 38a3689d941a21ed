/**
 * Document records, the one owner of the documents table: what process, extract and course
 * generation create (documents/ingest.ts fills them in), and for indexed documents (kind 'index')
 * their list, ownership checks and deletion. A document belongs to one learner of one tenant; to anyone
 * else it does not exist (404), so ids cannot be probed across learners or tenants. Its statements
 * run on either engine through the seam (src/db/sql.ts).
 */
import { byDialect, inJsonArray, type Query, type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import type { DocumentRepeats } from "../ingest/types.ts";
import { decodeCursor, encodeCursor } from "../keyset-cursor.ts";
import { deleteBlob } from "../media/blob-store.ts";
import { deleteChunksOf } from "../retrieval/index.ts";
import { newId, nowIso } from "../util.ts";
import { documentDetails, type RepeatSummary } from "./repeated-sections.ts";

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

interface NewRecord {
  filename: string;
  sourceType: SourceType;
  sourceUrl?: string | null;
  spaceId?: string | null;
  /** extract: recorded markdown, never indexed; index (the default): indexed for query and courses. */
  kind?: "index" | "extract";
  blobKey?: string | null;
  mimeType?: string | null;
  /** The node whose request ingests it (an upload's); see failInterruptedDocuments. */
  ingestNode?: string | null;
  /** Until when that node holds the upload's ingestion (ingest-leases.ts renews it). */
  ingestLeaseUntil?: string | null;
}

const insertRecord = (id: string, owner: RecordOwner, d: NewRecord): Query =>
  sql`INSERT INTO documents (id, tenant_id, user_id, space_id, kind, filename, source_type, source_url, blob_key, mime_type, ingest_node, ingest_lease_until, status, created_at)
      VALUES (${id}, ${owner.tenantId}, ${owner.userId}, ${d.spaceId ?? null}, ${d.kind ?? "index"}, ${d.filename},
              ${d.sourceType}, ${d.sourceUrl ?? null}, ${d.blobKey ?? null}, ${d.mimeType ?? null}, ${d.ingestNode ?? null},
              ${d.ingestLeaseUntil ?? null}, 'processing', ${nowIso()})`;

/** A new record, `processing` until its source is ingested. */
export async function createDocumentRecord(db: Sql, owner: RecordOwner, d: NewRecord): Promise<string> {
  const id = newId();
  await db.run(insertRecord(id, owner, d));
  return id;
}

export interface ReadyRecord {
  blobKey: string | null;
  /** What the source turned out to be (a URL sent as a page may be a video); kept as created when omitted. */
  sourceType?: SourceType;
  mimeType: string;
  pages: number | null;
  markdown: string;
  title: string | null;
  chunkCount: number;
}

export async function markDocumentReady(db: Sql, id: string, r: ReadyRecord): Promise<void> {
  await db.run(
    sql`UPDATE documents SET status = 'ready', error = NULL, blob_key = coalesce(${r.blobKey}, blob_key),
             source_type = coalesce(${r.sourceType ?? null}, source_type), mime_type = ${r.mimeType}, pages = ${r.pages},
             char_count = ${r.markdown.length}, markdown = ${r.markdown}, title = ${r.title}, chunk_count = ${r.chunkCount}
       WHERE id = ${id}`,
  );
}

/** What the document repeats of itself: its summary for the details, and the chunks courses leave out. */
export async function setDocumentRepeats(db: Sql, id: string, repeats: DocumentRepeats): Promise<void> {
  const { chunk_ids, ...summary } = repeats;
  await db.run(
    sql`UPDATE documents SET repeats = ${JSON.stringify(summary)}, repeated_chunks = ${JSON.stringify(chunk_ids)}
         WHERE id = ${id}`,
  );
}

/** What an extract record was billed: written in the ingest commit, with its usage event. */
export async function setBilledMicros(db: Sql, id: string, micros: number): Promise<void> {
  await db.run(sql`UPDATE documents SET billed_micros = ${micros} WHERE id = ${id}`);
}

/** The record ends in error (its original kept when `blobKey` is given); its chunks are failDocument's. */
export async function markDocumentError(
  db: Sql,
  id: string,
  message: string,
  blobKey: string | null = null,
): Promise<void> {
  await db.run(
    sql`UPDATE documents SET status = 'error', error = ${message}, blob_key = coalesce(${blobKey}, blob_key), chunk_count = 0
         WHERE id = ${id}`,
  );
}

/** What failing a document takes: the seam (its chunks and its record in one transaction). */
export interface FailDeps {
  sql: Sql;
}

/**
 * A source that failed: an extraction process stopped while indexing (or a server stopped
 * mid-batch) may have written some chunks; they go and the record ends in error in one
 * transaction. At start a dead server's extraction process may still be writing: the seam's
 * transaction begins IMMEDIATE and waits the lock out (the crash suite kills beside it).
 */
export async function failDocument(
  svc: FailDeps,
  id: string,
  message: string,
  blobKey: string | null = null,
): Promise<void> {
  await svc.sql.transaction(async (tx) => {
    await deleteChunksOf(tx, { documentId: id, chapterId: null });
    await markDocumentError(tx, id, message, blobKey);
  });
}

/**
 * Documents a stopped or crashed server left in 'processing' while a request waited on them. That
 * request was never answered, so nothing acknowledged is lost: they end as errors that say to send
 * the source again. A course's documents are left alone: its resumed job ingests them. Call once at
 * start, before serving (one server per data directory, so nothing else is processing then).
 */
export async function failInterruptedDocuments(svc: FailDeps, node: string): Promise<number> {
  // SQLite's data directory has one server, so every upload still processing was its own (rows
  // from before ingest_node too); on PostgreSQL other nodes' uploads are in flight: only this
  // node's, and those no node claimed (copied from SQLite), were interrupted.
  const mine = byDialect({ sqlite: sql``, postgres: sql` AND (ingest_node = ${node} OR ingest_node IS NULL)` });
  const rows = await svc.sql.all<{ id: string }>(
    sql`SELECT id FROM documents WHERE status = 'processing' AND id NOT IN (SELECT document_id FROM course_documents)${mine}`,
  );
  for (const { id } of rows)
    await failDocument(svc, id, "Processing was interrupted by a server restart; send the source again");
  return rows.length;
}

/**
 * Other nodes' uploads still processing whose ingestion lease ran out before `now` (ingest-leases.ts);
 * a course's sources are left to its resumed job, as at start.
 */
export async function abandonedUploads(db: Sql, node: string, now: string): Promise<string[]> {
  const rows = await db.all<{ id: string }>(
    sql`SELECT id FROM documents
         WHERE status = 'processing' AND ingest_node IS NOT NULL AND ingest_node <> ${node}
           AND ingest_lease_until < ${now} AND id NOT IN (SELECT document_id FROM course_documents)`,
  );
  return rows.map((r) => r.id);
}

const COLUMNS = sql`id, tenant_id, user_id, space_id, filename, source_type, source_url, blob_key, mime_type, pages,
  char_count, status, error, chunk_count, billed_micros, repeats, created_at`;

/** PostgreSQL's bigint arrives as a string: micros are numbers out of the owner. */
const toRow = (r: DocumentRow): DocumentRow => ({ ...r, billed_micros: Number(r.billed_micros) });

/** A record by id, whoever owns it (the caller made it in this request). */
export async function loadDocument(db: Sql, id: string): Promise<DocumentRow> {
  const row = await db.get<DocumentRow>(sql`SELECT ${COLUMNS} FROM documents WHERE id = ${id}`);
  if (!row) throw new AppError("DOCUMENT_NOT_FOUND", "Document not found");
  return toRow(row);
}

/** The record `id` when it is the owner's indexed document. */
const ownedBy = (owner: DocumentOwner, id: string): Query =>
  sql`id = ${id} AND tenant_id = ${owner.tenantId} AND user_id = ${owner.userId} AND kind = 'index'`;

export async function loadOwnedDocument(db: Sql, owner: DocumentOwner, id: string): Promise<DocumentRow> {
  const row = await db.get<DocumentRow>(sql`SELECT ${COLUMNS} FROM documents WHERE ${ownedBy(owner, id)}`);
  if (!row) throw new AppError("DOCUMENT_NOT_FOUND", "Document not found");
  return toRow(row);
}

/** 404 naming the ids that are not the caller's indexed documents. */
export async function assertOwnedDocuments(db: Sql, owner: DocumentOwner, ids: string[]): Promise<void> {
  const rows = await db.all<{ id: string }>(
    sql`SELECT id FROM documents WHERE tenant_id = ${owner.tenantId} AND user_id = ${owner.userId} AND kind = 'index'
         AND ${inJsonArray("id", ids)}`,
  );
  const found = new Set(rows.map((r) => r.id));
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
export async function listDocuments(
  db: Sql,
  owner: DocumentOwner,
  opts: { limit: number; cursor?: string | null; spaceId?: string | null },
) {
  const after = opts.cursor ? decodeCursor(opts.cursor) : null;
  const inSpace = (opts.spaceId ?? null) === null ? sql`` : sql` AND space_id = ${opts.spaceId}`;
  const afterCursor = after
    ? sql` AND (created_at < ${after.createdAt} OR (created_at = ${after.createdAt} AND id < ${after.id}))`
    : sql``;
  const rows = await db.all<DocumentRow>(
    sql`SELECT ${COLUMNS} FROM documents
         WHERE tenant_id = ${owner.tenantId} AND user_id = ${owner.userId} AND kind = 'index'${inSpace}${afterCursor}
         ORDER BY created_at DESC, id DESC LIMIT ${opts.limit + 1}`,
  );
  const hasMore = rows.length > opts.limit;
  const page = (hasMore ? rows.slice(0, opts.limit) : rows).map(toRow);
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
 * Deletes an indexed document (its record, and with it its chunks, their FTS rows and vectors, and
 * its course links), then its stored original. Found and deleted in one statement, so of two
 * deletes at once (two requests, two nodes) one deletes and the other answers 404.
 */
export async function deleteDocument(
  svc: { sql: Sql; cfg: { blobDir: string } },
  owner: DocumentOwner,
  id: string,
): Promise<void> {
  const [doc] = await svc.sql.all<{ blob_key: string | null }>(
    sql`DELETE FROM documents WHERE ${ownedBy(owner, id)} RETURNING blob_key`,
  );
  if (!doc) throw new AppError("DOCUMENT_NOT_FOUND", "Document not found");
  if (doc.blob_key) await deleteBlob(svc.cfg, doc.blob_key);
}

/** The records of `ids`, oldest first (a course's sources, in the order they were stored). */
export async function recordsOldestFirst(db: Sql, ids: readonly string[]): Promise<DocumentRow[]> {
  const rows = await db.all<DocumentRow>(
    sql`SELECT ${COLUMNS} FROM documents WHERE ${inJsonArray("id", ids)} ORDER BY created_at, rowid`,
  );
  return rows.map(toRow);
}

/** Id, name and status of records, in the order of `ids` (what a stopped request had stored). */
export async function recordSummaries(
  db: Sql,
  ids: string[],
): Promise<{ id: string; filename: string; status: string }[]> {
  const rows = await db.all<{ id: string; filename: string; status: string }>(
    sql`SELECT id, filename, status FROM documents WHERE ${inJsonArray("id", ids)}`,
  );
  return ids.flatMap((id) => rows.filter((r) => r.id === id));
}

/**
 * A document's record; the foreign keys take its chunks (whose triggers take the FTS rows and
 * vectors along) and course links with it, in the one statement.
 */
export async function removeDocumentRows(db: Sql, id: string): Promise<void> {
  await db.run(sql`DELETE FROM documents WHERE id = ${id}`);
}
