/** Chapter reads other folders need: the written chapters, one chapter's quiz, one chapter with its course title. */
import { type Sql, sql } from "../db/sql.ts";

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
export function writtenChapters(db: Sql, courseId: string): Promise<WrittenChapter[]> {
  return db.all<WrittenChapter>(
    sql`SELECT id, order_index, title FROM chapters WHERE course_id = ${courseId} AND status = 'completed' ORDER BY order_index`,
  );
}

/** The written chapter at `orderIndex`, or null when it is not written yet or out of range. */
export function writtenChapter(db: Sql, courseId: string, orderIndex: number): Promise<WrittenChapter | null> {
  return db.get<WrittenChapter>(
    sql`SELECT id, order_index, title FROM chapters
         WHERE course_id = ${courseId} AND order_index = ${orderIndex} AND status = 'completed'`,
  );
}

/** Every chapter of the course in order, written or not, with the number of its quiz questions. */
export function chapterOutline(db: Sql, courseId: string) {
  return db.all<{ id: string; order_index: number; title: string; status: string; questions: number }>(
    sql`SELECT ch.id, ch.order_index, ch.title, ch.status,
               CAST((SELECT COUNT(*) FROM quiz_questions q WHERE q.chapter_id = ch.id) AS INTEGER) AS questions
          FROM chapters ch WHERE ch.course_id = ${courseId} ORDER BY ch.order_index`,
  );
}

/** A chapter's quiz questions in order. */
export function chapterQuiz(db: Sql, chapterId: string): Promise<QuizQuestionRow[]> {
  return db.all<QuizQuestionRow>(
    sql`SELECT type, prompt, choices, answer, explanation FROM quiz_questions WHERE chapter_id = ${chapterId} ORDER BY position`,
  );
}

/** A chapter's text with its course's title, or null when the chapter is gone. */
export function chapterWithCourseTitle(db: Sql, chapterId: string) {
  return db.get<{ course_title: string; chapter_title: string; content: string | null; key_concepts: string }>(
    sql`SELECT c.title AS course_title, ch.title AS chapter_title, ch.content, ch.key_concepts
          FROM chapters ch JOIN courses c ON c.id = ch.course_id WHERE ch.id = ${chapterId}`,
  );
}
