/**
 * Ingestion of a course's sources inside its job: each document still `processing` is extracted,
 * indexed and committed on its own (ready, or error with the reason), so a slow PDF never blocks
 * the request that uploaded it, a failing source leaves the others untouched, and a restart only
 * redoes the sources not committed yet.
 */
import type { Database } from "bun:sqlite";
import pLimit from "p-limit";
import { AppError } from "../errors.ts";
import { extractFile, extractUrl } from "../ingest/index.ts";
import type { ExtractResult } from "../ingest/types.ts";
import { blobPath } from "../media/blob-store.ts";
import { indexDocument, indexJob } from "../retrieval/index.ts";
import type { Services } from "../services.ts";
import type { CourseRow } from "./store.ts";

export interface CourseDocument {
  id: string;
  filename: string;
  source_type: "file" | "youtube" | "web";
  source_url: string | null;
  blob_key: string | null;
  status: "processing" | "ready" | "error";
  chunk_count: number;
  error: string | null;
}

export function courseDocuments(sqlite: Database, courseId: string): CourseDocument[] {
  return sqlite
    .query<CourseDocument, [string]>(
      `SELECT d.id, d.filename, d.source_type, d.source_url, d.blob_key, d.status, d.chunk_count, d.error
         FROM documents d JOIN course_documents cd ON cd.document_id = d.id
        WHERE cd.course_id = ? ORDER BY d.created_at, d.rowid`,
    )
    .all(courseId);
}

async function extract(svc: Services, doc: CourseDocument, course: CourseRow): Promise<ExtractResult> {
  const opts = {
    tenant: course.tenant_id,
    index: indexJob(svc, { tenantId: course.tenant_id, userId: course.user_id, documentId: doc.id }),
  };
  if (doc.source_type === "file") {
    if (!doc.blob_key) throw new AppError("INTERNAL", `The upload of "${doc.filename}" was not stored`);
    return extractFile(blobPath(svc.cfg.dataDir, doc.blob_key), doc.filename, svc.cfg, opts);
  }
  return extractUrl(doc.source_url ?? doc.filename, svc.cfg, opts);
}

function markReady(sqlite: Database, doc: CourseDocument, result: ExtractResult, chunkCount: number): void {
  sqlite.transaction(() => {
    sqlite.run(
      `UPDATE documents SET status = 'ready', error = NULL, mime_type = ?, pages = ?, char_count = ?, markdown = ?, title = ?, chunk_count = ?
        WHERE id = ?`,
      [result.mimeType, result.pages, result.markdown.length, result.markdown, result.title, chunkCount, doc.id],
    );
  })();
}

function markFailed(sqlite: Database, docId: string, message: string): void {
  // An extraction process stopped while indexing may have written some chunks.
  sqlite.run("DELETE FROM retrieval_chunks WHERE document_id = ?", [docId]);
  sqlite.run("UPDATE documents SET status = 'error', error = ? WHERE id = ?", [message, docId]);
}

/**
 * Ingests the course's pending sources; `onDocument` hears each outcome. Returns every source of
 * the course with its final status.
 */
export async function ingestCourseSources(
  svc: Services,
  course: CourseRow,
  opts: { signal: AbortSignal; onDocument: (doc: CourseDocument) => void },
): Promise<CourseDocument[]> {
  const pending = courseDocuments(svc.sqlite, course.id).filter((d) => d.status === "processing");
  const limit = pLimit(svc.cfg.ingestConcurrency);
  await Promise.all(
    pending.map((doc) =>
      limit(async () => {
        if (opts.signal.aborted) return;
        try {
          const result = await extract(svc, doc, course);
          if (!result.markdown.trim())
            throw new AppError("NO_TEXT_FOUND", `No text could be extracted from "${doc.filename}"`);
          // Files and web pages were indexed in their extraction process; video transcripts are indexed here.
          const chunkCount =
            result.chunkCount ??
            (
              await indexDocument(svc, {
                tenantId: course.tenant_id,
                userId: course.user_id,
                documentId: doc.id,
                extract: result,
              })
            ).chunkCount;
          markReady(svc.sqlite, doc, result, chunkCount);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          markFailed(svc.sqlite, doc.id, message);
          svc.log.warn("course source failed", { course_id: course.id, document_id: doc.id, error: message });
        }
        const now = courseDocuments(svc.sqlite, course.id).find((d) => d.id === doc.id);
        if (now) opts.onDocument(now);
      }),
    ),
  );
  return courseDocuments(svc.sqlite, course.id);
}
