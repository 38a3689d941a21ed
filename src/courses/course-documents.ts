/** The documents a course is built from (course_documents). */
import { type Sql, sql } from "../db/sql.ts";

export async function courseDocumentIds(db: Sql, courseId: string): Promise<string[]> {
  const rows = await db.all<{ document_id: string }>(
    sql`SELECT document_id FROM course_documents WHERE course_id = ${courseId}`,
  );
  return rows.map((r) => r.document_id);
}

/** Links documents to the course (those already linked stay as they are), so course Q&A retrieves over them. */
export async function linkCourseDocuments(db: Sql, courseId: string, documentIds: readonly string[]): Promise<void> {
  for (const id of documentIds) {
    await db.run(
      sql`INSERT INTO course_documents (course_id, document_id) VALUES (${courseId}, ${id}) ON CONFLICT DO NOTHING`,
    );
  }
}
