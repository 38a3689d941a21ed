/** What the materials are built from: a course's title, status and finished chapters. */
import type { Database } from "bun:sqlite";
import { AppError } from "../errors.ts";
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
  if (!row) throw new AppError("NOT_FOUND", "Course not found");
  return row;
}

export function courseHead(sqlite: Database, courseId: string): CourseHead {
  const row = sqlite
    .query<CourseHead, [string]>("SELECT id, title, status, model FROM courses WHERE id = ?")
    .get(courseId);
  if (!row) throw new AppError("NOT_FOUND", "Course not found");
  return row;
}

/**
 * Completed chapters in order, as the material generators take them: with the passages they cite
 * (so a question can give the page of its sentence) and their quizzes (so an exam does not repeat them).
 */
export function completedChapters(sqlite: Database, courseId: string): ChapterSummary[] {
  const chapters = sqlite
    .query<{ id: string; title: string; content: string | null; key_concepts: string }, [string]>(
      `SELECT id, title, content, key_concepts FROM chapters
        WHERE course_id = ? AND status = 'completed' ORDER BY order_index`,
    )
    .all(courseId);
  const sources = sqlite.query<{ text: string; filename: string | null; page: number | null }, [string]>(
    `SELECT rc.text, s.filename, s.page FROM chapter_sources s JOIN retrieval_chunks rc ON rc.id = s.chunk_id
      WHERE s.chapter_id = ? ORDER BY s.position`,
  );
  const quiz = sqlite.query<{ prompt: string; choices: string; answer: string; explanation: string | null }, [string]>(
    "SELECT prompt, choices, answer, explanation FROM quiz_questions WHERE chapter_id = ? AND type = 'mcq' ORDER BY position",
  );
  return chapters.map((c) => ({
    title: c.title,
    content: c.content ?? "",
    key_concepts: JSON.parse(c.key_concepts) as string[],
    sources: sources.all(c.id),
    quiz: quiz.all(c.id).map((q) => ({
      type: "mcq" as const,
      prompt: q.prompt,
      choices: JSON.parse(q.choices) as string[],
      answer: JSON.parse(q.answer) as number,
      explanation: q.explanation ?? "",
    })),
  }));
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
  throw new AppError(course.status === "generating" ? "COURSE_GENERATING" : "COURSE_NOT_COMPLETED", message, {
    course_status: course.status,
  });
}
