import { writtenChapter as findWrittenChapter, type WrittenChapter } from "../courses/chapters.ts";
import type { CourseOwner } from "../courses/read.ts";
import { type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import type { ProgressStores } from "./stores.ts";

/** A written chapter of the course; one not written yet (or out of range) is 404, as GET /v2/courses/{id} does not show it. */
export async function writtenChapter(db: Sql, courseId: string, orderIndex: number): Promise<WrittenChapter> {
  const row = await findWrittenChapter(db, courseId, orderIndex);
  if (!row) throw new AppError("CHAPTER_NOT_FOUND", `The course has no written chapter with order_index ${orderIndex}`);
  return row;
}

/** Records that the learner read a chapter and answers when they first did: marking it again keeps that time. */
export async function recordChapterRead(
  db: Sql,
  owner: CourseOwner,
  at: { courseId: string; chapterId: string },
  now: Date,
): Promise<string> {
  await db.run(
    sql`INSERT INTO chapter_reads (tenant_id, user_id, course_id, chapter_id, read_at)
        VALUES (${owner.tenantId}, ${owner.userId}, ${at.courseId}, ${at.chapterId}, ${now.toISOString()})
        ON CONFLICT (user_id, chapter_id) DO NOTHING`,
  );
  const row = await db.get<{ read_at: string }>(
    sql`SELECT read_at FROM chapter_reads WHERE user_id = ${owner.userId} AND chapter_id = ${at.chapterId}`,
  );
  return row!.read_at;
}

/** Marks a chapter read; marking it again keeps the first time. */
export async function markChapterRead(
  stores: ProgressStores,
  owner: CourseOwner,
  courseId: string,
  orderIndex: number,
  now: Date,
) {
  const chapter = await writtenChapter(stores.db, courseId, orderIndex);
  const read_at = await recordChapterRead(stores.db, owner, { courseId, chapterId: chapter.id }, now);
  return { course_id: courseId, order_index: orderIndex, title: chapter.title, read: true, read_at };
}
