/** The documents a course is built from (course_documents). */
import type { Database } from "bun:sqlite";
import { type Sql, sql, sqliteSql } from "../db/sql.ts";

/**
 * Synchronous: resume's transaction (with src/jobs' synchronous enqueue) and the documents owner's
 * record reads call it, neither behind the seam yet.
 */
export function courseDocumentIds(sqlite: Database, courseId: string): string[] {
  return sqliteSql(sqlite)
    .allSync<{ document_id: string }>(sql`SELECT document_id FROM course_documents WHERE course_id = ${courseId}`)
    .map((r) => r.document_id);
}

/** Links documents to the course (those already linked stay as they are), so course Q&A retrieves over them. */
export async function linkCourseDocuments(db: Sql, courseId: string, documentIds: readonly string[]): Promise<void> {
  for (const id of documentIds) {
    await db.run(
      sql`INSERT INTO course_documents (course_id, document_id) VALUES (${courseId}, ${id}) ON CONFLICT DO NOTHING`,
    );
  }
}
