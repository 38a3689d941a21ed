/**
 * A learner's standing in a course: chapters read, best and last quiz scores, exam attempts,
 * flashcards, and the completion figure (chapters read plus chapter quizzes passed, over twice
 * the number of chapters; decks and exams are optional materials and do not count).
 */
import { chapterOutline } from "../courses/chapters.ts";
import type { CourseHead, CourseOwner } from "../courses/read.ts";
import { type Sql, sql } from "../db/sql.ts";
import { findDeck } from "../materials/flashcards.ts";
import { deckStanding } from "./flashcard-reviews.ts";
import { percent, share } from "./share.ts";
import type { ProgressStores } from "./stores.ts";

/** A chapter quiz is passed when an attempt gets at least two thirds of its questions right. */
const QUIZ_PASS = 2 / 3;

interface AttemptRow {
  id: string;
  score: number;
  total: number;
  created_at: string;
}

const summary = (a: AttemptRow) => ({
  attempt_id: a.id,
  score: a.score,
  total: a.total,
  percent: percent(a.score, a.total),
  created_at: a.created_at,
});

/** Best (highest share, earliest on a tie) and last of attempts in the order they were made. */
function bestAndLast(attempts: AttemptRow[]) {
  if (attempts.length === 0) return { attempts: 0, best: null, last: null };
  const best = attempts.reduce((b, a) => (share(a.score, a.total) > share(b.score, b.total) ? a : b));
  return { attempts: attempts.length, best: summary(best), last: summary(attempts[attempts.length - 1]!) };
}

/** The learner's reads and attempts in a course, attempts in the order they were made. */
export async function courseRecord(db: Sql, owner: CourseOwner, courseId: string) {
  const reads = await db.all<{ chapter_id: string; read_at: string }>(
    sql`SELECT chapter_id, read_at FROM chapter_reads WHERE user_id = ${owner.userId} AND course_id = ${courseId}`,
  );
  const quizAttempts = await db.all<AttemptRow & { chapter_id: string }>(
    sql`SELECT id, chapter_id, score, total, created_at FROM quiz_attempts
         WHERE user_id = ${owner.userId} AND course_id = ${courseId} ORDER BY created_at, rowid`,
  );
  const examAttempts = await db.all<AttemptRow & { exam_size: number; exam_model: string; grader_engine: string }>(
    sql`SELECT id, exam_size, exam_model, grader_engine, score, total, created_at FROM exam_attempts
         WHERE user_id = ${owner.userId} AND course_id = ${courseId} ORDER BY created_at, rowid`,
  );
  return { reads: new Map(reads.map((r) => [r.chapter_id, r.read_at])), quizAttempts, examAttempts };
}

export async function learnerProgress(stores: ProgressStores, owner: CourseOwner, course: CourseHead, now: Date) {
  const chapters = await chapterOutline(stores.db, course.id);
  const { reads, quizAttempts, examAttempts } = await courseRecord(stores.db, owner, course.id);

  const chapterViews = chapters.map((ch) => {
    const quiz = bestAndLast(quizAttempts.filter((a) => a.chapter_id === ch.id));
    const passed = quiz.best !== null && share(quiz.best.score, quiz.best.total) >= QUIZ_PASS;
    return {
      order_index: ch.order_index,
      title: ch.title,
      written: ch.status === "completed",
      read: reads.has(ch.id),
      read_at: reads.get(ch.id) ?? null,
      quiz: { questions: ch.questions, ...quiz, passed },
    };
  });

  const deck = await findDeck(stores.db, course.id);
  const cards = deck ? await deckStanding(stores.db, owner.userId, deck, now) : null;
  const chaptersRead = chapterViews.filter((c) => c.read).length;
  const quizzesPassed = chapterViews.filter((c) => c.quiz.passed).length;

  return {
    course_id: course.id,
    course_status: course.status,
    as_of: now.toISOString(),
    completion: {
      percent: Math.floor(share(chaptersRead + quizzesPassed, 2 * chapters.length) * 100),
      chapters: chapters.length,
      chapters_read: chaptersRead,
      quizzes_passed: quizzesPassed,
    },
    chapters: chapterViews,
    exams: {
      ...bestAndLast(examAttempts),
      history: examAttempts.map((a) => ({
        ...summary(a),
        exam_size: a.exam_size,
        exam_model: a.exam_model,
        grader_engine: a.grader_engine,
      })),
    },
    flashcards: {
      generated: deck !== null,
      deck_title: deck?.deck.deck_title ?? null,
      total: cards?.total ?? 0,
      reviewed: cards?.reviewed ?? 0,
      due: cards?.due.length ?? 0,
      next_due: cards?.next_due ?? null,
    },
  };
}
