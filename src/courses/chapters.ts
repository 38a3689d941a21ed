/** Chapter reads other folders need: the written chapters, one chapter's quiz, one chapter with its course title. */
import type { Database } from "bun:sqlite";

export interface WrittenChapter {
  id: string;
  order_index: number;
  title: string;
}

/** A stored quiz question: JSON columns as text. */
export interface QuizQuestionRow {
  type: string;
  prompt: string;
  choices: string;
  answer: string;
  explanation: string | null;
}

/** The course's written (completed) chapters in order. */
export function writtenChapters(sqlite: Database, courseId: string): WrittenChapter[] {
  return sqlite
    .query<WrittenChapter, [string]>(
      "SELECT id, order_index, title FROM chapters WHERE course_id = ? AND status = 'completed' ORDER BY order_index",
    )
    .all(courseId);
}

/** The written chapter at `orderIndex`, or null when it is not written yet or out of range. */
export function writtenChapter(sqlite: Database, courseId: string, orderIndex: number): WrittenChapter | null {
  return sqlite
    .query<WrittenChapter, [string, number]>(
      "SELECT id, order_index, title FROM chapters WHERE course_id = ? AND order_index = ? AND status = 'completed'",
    )
    .get(courseId, orderIndex);
}

/** Every chapter of the course in order, written or not, with the number of its quiz questions. */
export function chapterOutline(sqlite: Database, courseId: string) {
  return sqlite
    .query<{ id: string; order_index: number; title: string; status: string; questions: number }, [string]>(
      `SELECT ch.id, ch.order_index, ch.title, ch.status, (SELECT COUNT(*) FROM quiz_questions q WHERE q.chapter_id = ch.id) AS questions
         FROM chapters ch WHERE ch.course_id = ? ORDER BY ch.order_index`,
    )
    .all(courseId);
}

/** A chapter's quiz questions in order. */
export function chapterQuiz(sqlite: Database, chapterId: string): QuizQuestionRow[] {
  return sqlite
    .query<QuizQuestionRow, [string]>(
      "SELECT type, prompt, choices, answer, explanation FROM quiz_questions WHERE chapter_id = ? ORDER BY position",
    )
    .all(chapterId);
}

/** A chapter's text with its course's title, or null when the chapter is gone. */
export function chapterWithCourseTitle(sqlite: Database, chapterId: string) {
  return sqlite
    .query<{ course_title: string; chapter_title: string; content: string | null; key_concepts: string }, [string]>(
      `SELECT c.title AS course_title, ch.title AS chapter_title, ch.content, ch.key_concepts
         FROM chapters ch JOIN courses c ON c.id = ch.course_id WHERE ch.id = ?`,
    )
    .get(chapterId);
}
