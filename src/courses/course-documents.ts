/** The documents a course is built from (course_documents). */
import type { Database } from "bun:sqlite";

export function courseDocumentIds(sqlite: Database, courseId: string): string[] {
  return sqlite
    .query<{ document_id: string }, [string]>("SELECT document_id FROM course_documents WHERE course_id = ?")
    .all(courseId)
    .map((r) => r.document_id);
}
