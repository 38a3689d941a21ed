/**
 * The progress owner's storage (chapter_reads, quiz_attempts, exam_attempts, flashcard_schedules,
 * flashcard_reviews) on both engines: SQLite (the server's) and PostgreSQL (a throwaway cluster).
 * Reviews of one card at once are applied one after the other, each from the state the one
 * before left; on PostgreSQL across connections, held by the seam's lock.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "../../src/db/sql.ts";
import { recordChapterRead } from "../../src/progress/chapters.ts";
import { readExamAttempt, saveExamAttempt } from "../../src/progress/exam-attempts.ts";
import { recordReview } from "../../src/progress/flashcard-reviews.ts";
import type { QuestionResult } from "../../src/progress/grading.ts";
import { readQuizAttempt, saveQuizAttempt } from "../../src/progress/quiz-attempts.ts";
import { courseRecord } from "../../src/progress/standing.ts";
import { ENGINES, type Engine, postgresEngine } from "../helpers/engines.ts";
import { seedCourse } from "../helpers/seed-course.ts";
import { slowWrites } from "../helpers/slow-writes.ts";

const graded = (score: number, total: number) => ({
  score,
  total,
  results: Array.from(
    { length: total },
    (_, i): QuestionResult => ({
      index: i,
      type: "mcq",
      correct: i < score,
      score: i < score ? 1 : 0,
      answer: 0,
      expected: 0,
      expected_text: "A",
      explanation: "",
    }),
  ),
});

describe.each(ENGINES)("progress storage on %s", (_, open) => {
  let e: Engine;

  // initdb on a loaded machine takes longer than a hook's default 5 s.
  beforeAll(async () => {
    e = await open();
  }, 120_000);
  afterAll(() => e?.close());

  test("a chapter read twice keeps its first time; reads and attempts come back per learner, in the order made", async () => {
    const c = await seedCourse(e.db, "readers");
    const other = await seedCourse(e.db, "others");
    const first = new Date("2026-03-02T09:00:00.000Z");
    const at = { courseId: c.courseId, chapterId: c.chapters[0]!.id };
    expect(await recordChapterRead(e.db, c.owner, at, first)).toBe(first.toISOString());
    expect(await recordChapterRead(e.db, c.owner, at, new Date("2026-03-03T09:00:00.000Z"))).toBe(first.toISOString());

    const quizAt = { courseId: c.courseId, chapterId: c.chapters[1]!.id, orderIndex: 1 };
    const quiz = { questions: [], answers: [0, 1, 2] };
    const sameTime = "2026-03-02T10:00:00.000Z";
    const q1 = await saveQuizAttempt(e.db, c.owner, quizAt, { ...quiz, graded: graded(1, 3) }, sameTime);
    const q2 = await saveQuizAttempt(e.db, c.owner, quizAt, { ...quiz, graded: graded(2.5, 3) }, sameTime);
    const exam = { id: c.examId, exam_size: 10, model: "extractive" };
    const grader = { engine: "extractive", model: "extractive" };
    const x1 = await saveExamAttempt(
      e.db,
      c.owner,
      { courseId: c.courseId, exam },
      { answers: [], graded: graded(7, 10), grader },
      sameTime,
    );

    expect(await readQuizAttempt(e.db, c.owner, c.courseId, 1, q2)).toMatchObject({
      score: 2.5,
      total: 3,
      results: graded(2.5, 3).results,
      created_at: sameTime,
    });
    expect(await readExamAttempt(e.db, c.owner, c.courseId, x1)).toMatchObject({
      exam_size: 10,
      score: 7,
      total: 10,
      percent: 70,
      grader,
    });
    await expect(readQuizAttempt(e.db, other.owner, c.courseId, 1, q1)).rejects.toMatchObject({
      code: "ATTEMPT_NOT_FOUND",
    });
    await expect(readExamAttempt(e.db, c.owner, c.courseId, q1)).rejects.toMatchObject({ code: "ATTEMPT_NOT_FOUND" });

    const record = await courseRecord(e.db, c.owner, c.courseId);
    expect([...record.reads]).toEqual([[c.chapters[0]!.id, first.toISOString()]]);
    // Made at the same instant: insertion order decides, on both engines.
    expect(record.quizAttempts.map((a) => [a.id, a.score])).toEqual([
      [q1, 1],
      [q2, 2.5],
    ]);
    expect(record.examAttempts).toEqual([
      expect.objectContaining({ id: x1, exam_size: 10, grader_engine: "extractive" }),
    ]);
    const empty = await courseRecord(e.db, other.owner, c.courseId);
    expect([empty.reads.size, empty.quizAttempts.length, empty.examAttempts.length]).toEqual([0, 0, 0]);
  });

  test("reviews of one card sent at once are each applied to the state the one before left", async () => {
    const c = await seedCourse(e.db, "reviewers");
    const at = { courseId: c.courseId, deckId: c.deckId, cardIndex: 2 };
    const now = new Date("2026-03-02T09:00:00.000Z");
    const raced = await Promise.all(Array.from({ length: 4 }, () => recordReview(e.db, c.owner, at, "good", now)));
    expect(raced.map((r) => r.next.reps).sort()).toEqual([1, 2, 3, 4]);

    const stored = await e.db.get<{ card: string }>(
      sql`SELECT card FROM flashcard_schedules WHERE user_id = ${c.owner.userId} AND deck_id = ${c.deckId} AND card_index = 2`,
    );
    expect(JSON.parse(stored!.card)).toMatchObject({ reps: 4 });
    const logged = await e.db.get<{ n: number }>(
      sql`SELECT CAST(count(*) AS INTEGER) AS n FROM flashcard_reviews WHERE user_id = ${c.owner.userId} AND card_index = 2`,
    );
    expect(logged!.n).toBe(4);
  });
});

describe("reviews of one card across PostgreSQL connections", () => {
  let e: Engine;

  beforeAll(async () => {
    e = await postgresEngine();
    // Each write of a card's schedule holds its transaction open a while, so a second review
    // reads the card while the first has not committed: only the lock keeps it from reading the old state.
    await slowWrites(e.db, { table: "flashcard_schedules", on: "INSERT", seconds: 0.3 });
  }, 120_000);
  afterAll(() => e?.close());

  test("two reviews at once: the second is scheduled from the first's state, not both from the new card", async () => {
    const c = await seedCourse(e.db, "slow");
    const at = { courseId: c.courseId, deckId: c.deckId, cardIndex: 0 };
    const now = new Date("2026-03-02T09:00:00.000Z");
    const raced = await Promise.all([
      recordReview(e.db, c.owner, at, "good", now),
      recordReview(e.db, c.owner, at, "good", now),
    ]);
    expect(raced.map((r) => r.next.reps).sort()).toEqual([1, 2]);
    const stored = await e.db.get<{ card: string }>(
      sql`SELECT card FROM flashcard_schedules WHERE user_id = ${c.owner.userId} AND deck_id = ${c.deckId} AND card_index = 0`,
    );
    expect(JSON.parse(stored!.card)).toMatchObject({ reps: 2 });
  }, 30_000);
});
