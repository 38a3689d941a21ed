/** A course's chapters as progress sees them, and marking one read. */
import type { Database } from "bun:sqlite";
import { writtenChapter as findWrittenChapter, type WrittenChapter } from "../courses/chapters.ts";
import type { CourseOwner } from "../courses/read.ts";
import { AppError } from "../errors.ts";

/** A written chapter of the course; one not written yet (or out of range) is 404, as GET /v2/courses/{id} does not show it. */
export function writtenChapter(sqlite: Database, courseId: string, orderIndex: number): WrittenChapter {
  const row = findWrittenChapter(sqlite, courseId, orderIndex);
  if (!row) throw new AppError("CHAPTER_NOT_FOUND", `The course has no written chapter with order_index ${orderIndex}`);
  return row;
}

/** Marks a chapter read; marking it again keeps the first time. */
export function markChapterRead(sqlite: Database, owner: CourseOwner, courseId: string, orderIndex: number, now: Date) {
  const chapter = writtenChapter(sqlite, courseId, orderIndex);
  sqlite.run(
    "INSERT OR IGNORE INTO chapter_reads (tenant_id, user_id, course_id, chapter_id, read_at) VALUES (?, ?, ?, ?, ?)",
    [owner.tenantId, owner.userId, courseId, chapter.id, now.toISOString()],
  );
  const { read_at } = sqlite
    .query<{ read_at: string }, [string, string]>(
      "SELECT read_at FROM chapter_reads WHERE user_id = ? AND chapter_id = ?",
    )
    .get(owner.userId, chapter.id)!;
  return { course_id: courseId, order_index: orderIndex, title: chapter.title, read: true, read_at };
}
