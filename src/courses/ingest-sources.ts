/**
 * Ingestion of a course's sources inside its job: each document still `processing` goes through
 * documents' one ingestion (documents/ingest.ts) and is committed on its own (ready, or error with
 * the reason), so a slow PDF never blocks the request that uploaded it, a failing source leaves
 * the others untouched, and a restart only redoes the sources not committed yet.
 */
import pLimit from "p-limit";
import type { Sql } from "../db/sql.ts";
import { type IngestDeps, ingestDocument } from "../documents/ingest.ts";
import { type DocumentRow, failDocument, recordsOldestFirst } from "../documents/records.ts";
import { detectFile, type RequestSource } from "../documents/sources.ts";
import { AppError } from "../errors.ts";
import { blobPath } from "../media/blob-store.ts";
import { courseDocumentIds } from "./course-documents.ts";
import type { GenerationEvent } from "./events.ts";
import type { CourseRow } from "./store.ts";

export type CourseDocument = Pick<
  DocumentRow,
  "id" | "filename" | "source_type" | "source_url" | "blob_key" | "status" | "chunk_count" | "error"
>;

/** What reads a course's sources: its links and the documents' records, through the seam. */
export type CourseDocumentsDeps = { sql: Sql };

/** The course's sources, oldest first. */
export async function courseDocuments(svc: CourseDocumentsDeps, courseId: string): Promise<CourseDocument[]> {
  return recordsOldestFirst(svc.sql, await courseDocumentIds(svc.sql, courseId));
}

/** A source's outcome as the `document` event of its course's job. */
export function documentEvent(jobId: string, courseId: string, d: CourseDocument): GenerationEvent {
  return {
    type: "document",
    job_id: jobId,
    course_id: courseId,
    document: {
      id: d.id,
      filename: d.filename,
      source_type: d.source_type,
      status: d.status === "ready" ? "ready" : "error",
      chunk_count: d.chunk_count,
      error: d.error,
    },
  };
}

/** The stored source as documents' ingestion takes it: an upload is detected again by the same rule. */
async function sourceOf(svc: Pick<IngestDeps, "cfg">, doc: CourseDocument): Promise<RequestSource> {
  if (doc.source_type !== "file") return { type: doc.source_type, url: doc.source_url ?? doc.filename };
  if (!doc.blob_key) {
    const missing = new AppError("INTERNAL", `The upload of "${doc.filename}" was not stored`);
    return { type: "file", path: "", filename: doc.filename, detected: missing };
  }
  const path = blobPath(svc.cfg.blobDir, doc.blob_key);
  return { type: "file", path, filename: doc.filename, detected: await detectFile(path, doc.filename) };
}

/**
 * Ingests the course's pending sources; `onDocument` hears each outcome. Returns every source of
 * the course with its final status.
 */
export async function ingestCourseSources(
  svc: IngestDeps & CourseDocumentsDeps,
  course: CourseRow,
  opts: { signal: AbortSignal; onDocument: (doc: CourseDocument) => void },
): Promise<CourseDocument[]> {
  const pending = (await courseDocuments(svc, course.id)).filter((d) => d.status === "processing");
  const owner = { tenantId: course.tenant_id, userId: course.user_id };
  const limit = pLimit(svc.cfg.ingestConcurrency);
  await Promise.all(
    pending.map((doc) =>
      limit(async () => {
        if (opts.signal.aborted) return;
        const target = { id: doc.id, owner, blobKey: doc.blob_key };
        const outcome = await ingestDocument(svc, target, await sourceOf(svc, doc), { index: true });
        if (outcome.status === "storage_full") {
          const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
          await failDocument(svc, doc.id, message);
        }
        const now = (await courseDocuments(svc, course.id)).find((d) => d.id === doc.id);
        if (now?.status === "error")
          svc.log.warn("course source failed", { course_id: course.id, document_id: doc.id, error: now.error });
        if (now) opts.onDocument(now);
      }),
    ),
  );
  return courseDocuments(svc, course.id);
}
