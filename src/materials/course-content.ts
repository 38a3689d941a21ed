/** What the materials are built from: a course's title, status and finished chapters. */
import type { Database } from "bun:sqlite";
import { conflict, notFound } from "../errors.ts";
import type { ChapterSummary } from "../llm/artefacts.ts";

export interface CourseHead {
  id: string;
  title: string;
  status: string;
  /** The model that generated the course. */
  model: string | null;
}

export interface CourseOwner {
  tenantId: string;
  userId: string;
}

/** The caller's course; another learner's course is a 404 like an unknown one, as the spec's material endpoints say. */
export function ownedCourse(sqlite: Database, owner: CourseOwner, courseId: string): CourseHead {
  const row = sqlite
    .query<CourseHead, [string, string, string]>(
      "SELECT id, title, status, model FROM courses WHERE id = ? AND tenant_id = ? AND user_id = ?",
    )
    .get(courseId, owner.tenantId, owner.userId);
  if (!row) throw notFound("Course not found");
  return row;
}

export function courseHead(sqlite: Database, courseId: string): CourseHead {
  const row = sqlite
    .query<CourseHead, [string]>("SELECT id, title, status, model FROM courses WHERE id = ?")
    .get(courseId);
  if (!row) throw notFound("Course not found");
  return row;
}

/** Completed chapters in order, as the material generators take them. */
export function completedChapters(sqlite: Database, courseId: string): ChapterSummary[] {
  return sqlite
    .query<{ title: string; content: string | null; key_concepts: string }, [string]>(
      `SELECT title, content, key_concepts FROM chapters
        WHERE course_id = ? AND status = 'completed' ORDER BY order_index`,
    )
    .all(courseId)
    .map((c) => ({ title: c.title, content: c.content ?? "", key_concepts: JSON.parse(c.key_concepts) as string[] }));
}

/**
 * Notes, flashcards and exams cover the whole course, so they wait for it: 409 while it is
 * generating, and 409 for a failed course until a resume completes it.
 */
export function assertCompleted(course: CourseHead): void {
  if (course.status === "completed") return;
  const message =
    course.status === "generating"
      ? "The course is still generating; study materials are available once it completes"
      : "The course failed before completing; resume it (POST /v2/courses/{course_id}/resume) to build study materials";
  throw conflict(message, course.status === "generating" ? "COURSE_GENERATING" : "COURSE_NOT_COMPLETED", {
    course_status: course.status,
  });
}
