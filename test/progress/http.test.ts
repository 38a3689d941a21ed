/**
 * Learning progress through the real server (built-in engine): quiz and exam attempts, flashcard
 * reviews and due cards, chapters read and the learner's standing; isolation, the 422 rules,
 * survival across a restart, and deletion with the course.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ShortAnswerQuestion } from "../../src/llm/artefacts.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { expectGuarded } from "../helpers/route-cases.ts";
import { call, errorOf } from "../helpers/server.ts";
import { insertRichCourse } from "../materials/fixtures.ts";
import { cacheDeck, cacheExam, DECK, EXAM, progressRows, QUIZ, setQuiz } from "./fixtures.ts";

let srv: TestApp;
let key: string;
let otherTenantKey: string;
let course: string;
let othersCourse: string;
let quizAttempt: any;
let examAttempt: any;

const as = (json?: unknown, user = "learner", k = key) => ({ key: k, user, json });
const post = (path: string, json: unknown, user = "learner", k = key) =>
  call(srv, `/v2/courses/${course}${path}`, { method: "POST", ...as(json, user, k) });
const get = (path: string, user = "learner", k = key, id = course) =>
  call(srv, `/v2/courses/${id}${path}`, as(undefined, user, k));

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("acme", "production");
  otherTenantKey = await srv.createKey("globex", "production");
  course = await insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: "learner" });
  othersCourse = await insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: "classmate" });
  await setQuiz(srv.dataDir, course, 0);
  await setQuiz(srv.dataDir, othersCourse, 0);
});
afterAll(() => srv.stop());

describe("quiz attempts", () => {
  test("every answer right: full score, each result correct with the expected choice and explanation", async () => {
    const r = await post("/chapters/0/quiz-attempts", { answers: QUIZ.map((q) => q.answer) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ course_id: course, order_index: 0, score: 3, total: 3 });
    expect(r.body.attempt_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.results.map((x: any) => [x.correct, x.expected, x.expected_text, x.explanation])).toEqual(
      QUIZ.map((q) => [true, q.answer, q.choices[q.answer], q.explanation]),
    );
    quizAttempt = r.body;
    const stored = await get(`/chapters/0/quiz-attempts/${r.body.attempt_id}`);
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual(r.body);
    for (const path of [
      `/chapters/1/quiz-attempts/${r.body.attempt_id}`,
      `/chapters/0/quiz-attempts/${crypto.randomUUID()}`,
    ]) {
      expect(errorOf(await get(path)).code).toBe("ATTEMPT_NOT_FOUND");
    }
  });

  test("a wrong choice scores nothing and names the right one; a blank (null) answer is wrong", async () => {
    const r = await post("/chapters/0/quiz-attempts", { answers: [2, 1, null] });
    expect(r.status).toBe(200);
    expect([r.body.score, r.body.total]).toEqual([1, 3]);
    expect(r.body.results.map((x: any) => x.correct)).toEqual([false, true, false]);
    expect(r.body.results[0]).toMatchObject({
      answer: 2,
      expected: 0,
      expected_text: "Diffusion of water across a membrane",
    });
  });

  test("422 names the broken rule: answer count, choice index out of range, text for a choice", async () => {
    const short = await post("/chapters/0/quiz-attempts", { answers: [0, 1] });
    expect(short.status).toBe(422);
    expect(errorOf(short).message).toContain("one answer per question: the quiz has 3 questions, 2 answers were sent");
    expect(errorOf(short).details).toEqual([
      expect.objectContaining({ rule: "one_answer_per_question", expected: 3, received: 2 }),
    ]);

    const range = await post("/chapters/0/quiz-attempts", { answers: [0, 4, "Two pyruvate"] });
    expect(range.status).toBe(422);
    const e = errorOf(range);
    expect(e.message).toContain("answers[1] must be the index of one of the question's 4 choices (0-3)");
    expect((e.details as any[]).map((d) => [d.field, d.rule])).toEqual([
      ["answers[1]", "mcq_choice_index"],
      ["answers[2]", "mcq_choice_index"],
    ]);

    const shape = await post("/chapters/0/quiz-attempts", { answers: "0,1,0" });
    expect(shape.status).toBe(422);
    expect(errorOf(shape).code).toBe("VALIDATION_ERROR");
  });

  test("a chapter that is not written is 404 CHAPTER_NOT_FOUND", async () => {
    const r = await post("/chapters/7/quiz-attempts", { answers: [0] });
    expect(r.status).toBe(404);
    expect(errorOf(r).code).toBe("CHAPTER_NOT_FOUND");
  });
});

describe("flashcards", () => {
  test("before any deck was generated, reviews and the due list are 404 FLASHCARDS_NOT_FOUND", async () => {
    const review = await post("/flashcards/reviews", { card_index: 0, rating: "good" });
    expect(review.status).toBe(404);
    expect(errorOf(review).code).toBe("FLASHCARDS_NOT_FOUND");
    expect(errorOf(await get("/flashcards/due")).code).toBe("FLASHCARDS_NOT_FOUND");
    await cacheDeck(srv.dataDir, course);
  });

  test("every new card is due at once, in deck order", async () => {
    const r = await get("/flashcards/due");
    expect(r.status).toBe(200);
    expect(r.body.total_due).toBe(DECK.cards.length);
    expect(r.body.cards.map((c: any) => [c.card_index, c.front, c.state, c.due])).toEqual(
      DECK.cards.map((c, i) => [i, c.front, "new", null]),
    );
    expect(r.body.next_due).toBeNull();
  });

  test("a card rated again is due sooner than one rated easy; neither is due now, the others still are", async () => {
    const before = Date.now();
    const again = await post("/flashcards/reviews", { card_index: 0, rating: "again" });
    const easy = await post("/flashcards/reviews", { card_index: 1, rating: "easy" });
    expect([again.status, easy.status]).toEqual([200, 200]);
    expect(again.body).toMatchObject({ card_index: 0, rating: "again", state: "learning", reps: 1 });
    expect(easy.body).toMatchObject({ card_index: 1, rating: "easy", state: "review", reps: 1 });
    const againDue = Date.parse(again.body.due);
    const easyDue = Date.parse(easy.body.due);
    expect(againDue).toBeGreaterThan(before);
    expect(againDue).toBeLessThan(easyDue);
    expect(easy.body.scheduled_days).toBeGreaterThanOrEqual(1);

    // Recalled on the next try, it moves to the next learning step (ten minutes, which also keeps
    // the lists compared across the restart below clear of its due time).
    const recalled = await post("/flashcards/reviews", { card_index: 0, rating: "good" });
    expect(recalled.body).toMatchObject({ state: "learning", reps: 2, lapses: 0 });
    expect(Date.parse(recalled.body.due)).toBeGreaterThan(againDue);

    const due = await get("/flashcards/due");
    expect(due.body.cards.map((c: any) => c.card_index)).toEqual([2, 3, 4]);
    expect(due.body.next_due).toBe(recalled.body.due);
    const limited = await get("/flashcards/due?limit=2");
    expect([limited.body.total_due, limited.body.cards.length]).toEqual([3, 2]);
  });

  test("422 for a card outside the deck and for an unknown rating, naming the rule", async () => {
    const outside = await post("/flashcards/reviews", { card_index: 5, rating: "good" });
    expect(outside.status).toBe(422);
    expect(errorOf(outside).message).toBe("card_index must be the index of one of the deck's 5 cards (0-4)");
    expect(errorOf(outside).details).toEqual([expect.objectContaining({ rule: "card_in_deck" })]);
    const rating = await post("/flashcards/reviews", { card_index: 0, rating: "meh" });
    expect(rating.status).toBe(422);
    expect(errorOf(rating).message).toContain("rating must be one of: again, hard, good, easy");
    const negative = await post("/flashcards/reviews", { card_index: -1, rating: "good" });
    expect(negative.status).toBe(422);
  });
});

describe("exam attempts, built-in grader", () => {
  test("no exam of that size yet is 404 EXAM_NOT_FOUND", async () => {
    const r = await post("/exam-attempts", { exam_size: 10, answers: [] });
    expect(r.status).toBe(404);
    expect(errorOf(r).code).toBe("EXAM_NOT_FOUND");
    await cacheExam(srv.dataDir, course, { size: 10 });
  });

  test("mcq exact, short answers and worked problems with partial credit per rubric point", async () => {
    const answers = [
      0,
      "Diffusing particles move from higher concentration to lower concentration, and the cell spends no energy on it.",
      "Water moves into the cell by osmosis.",
      "I don't know",
    ];
    const r = await post("/exam-attempts", { exam_size: 10, answers });
    expect(r.status).toBe(200);
    const [mcq, full, half, none] = r.body.results;
    expect(mcq).toMatchObject({ correct: true, score: 1, expected: 0 });
    expect(full.rubric.map((p: any) => p.met)).toEqual(["yes", "yes"]);
    expect(full).toMatchObject({
      type: "short_answer",
      correct: true,
      score: 1,
      expected: (EXAM[1] as ShortAnswerQuestion).answer,
    });
    expect(half.rubric.map((p: any) => [p.met, p.credit])).toEqual([
      ["yes", 1],
      ["no", 0],
    ]);
    expect(half.score).toBe(0.5);
    expect(half.explanation).toContain("The cell swells and may burst");
    expect(none).toMatchObject({ type: "worked_problem", correct: false, score: 0 });
    expect([r.body.score, r.body.total, r.body.percent]).toEqual([2.5, 4, 63]);
    expect(r.body.grader).toEqual({ engine: "extractive", model: "extractive" });
    examAttempt = r.body;
    expect((await get(`/exam-attempts/${r.body.attempt_id}`)).body).toEqual(r.body);
    expect(errorOf(await get(`/exam-attempts/${crypto.randomUUID()}`)).code).toBe("ATTEMPT_NOT_FOUND");
  });

  test("an answer of digits sent as text stays text: the worked problem's final answer is met", async () => {
    const r = await post("/exam-attempts", { exam_size: 10, answers: [null, "", "", "10"] });
    expect(r.status).toBe(200);
    expect(r.body.results[3]).toMatchObject({ answer: "10", expected: "10" });
    expect(r.body.results[3].rubric.at(-1)).toMatchObject({ point: "10", met: "yes" });
  });

  test("422 names the rule for the answer count and for a choice sent as text", async () => {
    const count = await post("/exam-attempts", { exam_size: 10, answers: [0] });
    expect(count.status).toBe(422);
    expect(errorOf(count).details).toEqual([expect.objectContaining({ rule: "one_answer_per_question", expected: 4 })]);
    const kinds = await post("/exam-attempts", { exam_size: 10, answers: ["Chlorophyll", 1, null, null] });
    expect(kinds.status).toBe(422);
    expect((errorOf(kinds).details as any[]).map((d) => d.rule)).toEqual(["mcq_choice_index", "text_answer"]);
    for (const choice of [1.5, -1, "0"]) {
      const bad = await post("/exam-attempts", { exam_size: 10, answers: [choice, null, null, null] });
      expect(errorOf(bad).details).toEqual([
        expect.objectContaining({ field: "answers[0]", rule: "mcq_choice_index" }),
      ]);
    }
    const size = await post("/exam-attempts", { exam_size: 9, answers: [] });
    expect(size.status).toBe(422);
  });
});

describe("against the exam and deck the server generated", () => {
  test("answers taken from the exam itself score full marks; the generated deck is reviewed by index", async () => {
    const fresh = await insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: "learner" });
    const exam = await call(srv, `/v2/courses/${fresh}/generate-exam`, {
      method: "POST",
      ...as({ exam_size: 10 }),
    });
    expect(exam.status).toBe(200);
    const questions: any[] = exam.body.exam.questions;
    expect(questions.some((q) => q.type === "short_answer")).toBe(true);
    const answers = questions.map((q) =>
      q.type === "mcq" ? q.answer : q.type === "short_answer" ? q.rubric.join(". ") : [...q.steps, q.answer].join(". "),
    );
    const r = await call(srv, `/v2/courses/${fresh}/exam-attempts`, {
      method: "POST",
      ...as({ exam_size: 10, answers }),
    });
    expect(r.status).toBe(200);
    const missed = r.body.results.filter((x: any) => x.score < 1).map((x: any) => [questions[x.index], x]);
    expect(JSON.stringify(missed, null, 1)).toBe("[]");
    expect([r.body.score, r.body.total]).toEqual([10, 10]);
    expect(r.body.results.every((x: any) => x.correct)).toBe(true);

    const deck = await call(srv, `/v2/courses/${fresh}/generate-flashcards`, { method: "POST", ...as({}) });
    const last = deck.body.flashcards.total - 1;
    const review = await call(srv, `/v2/courses/${fresh}/flashcards/reviews`, {
      method: "POST",
      ...as({ card_index: last, rating: "good" }),
    });
    expect(review.status).toBe(200);
    expect(review.body.front).toBe(deck.body.flashcards.cards[last].front);
    const due = await call(srv, `/v2/courses/${fresh}/flashcards/due`, as());
    expect(due.body.cards.map((c: any) => c.card_index)).not.toContain(last);
    expect(due.body.total_due).toBe(last);
  });
});

describe("learner progress", () => {
  test("chapters read, best and last quiz score, exams, flashcards and completion", async () => {
    const read = await post("/chapters/0/read", undefined);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ order_index: 0, read: true });
    const again = await post("/chapters/0/read", undefined);
    expect(again.body.read_at).toBe(read.body.read_at);

    const r = await get("/learner-progress");
    expect(r.status).toBe(200);
    const p = r.body;
    expect(p.chapters).toHaveLength(3);
    const [first, second] = p.chapters;
    expect(first).toMatchObject({ order_index: 0, written: true, read: true, read_at: read.body.read_at });
    expect(first.quiz).toMatchObject({
      questions: 3,
      attempts: 2,
      passed: true,
      best: { score: 3, total: 3, percent: 100 },
      last: { score: 1, total: 3, percent: 33 },
    });
    expect(second).toMatchObject({
      read: false,
      read_at: null,
      quiz: { attempts: 0, best: null, last: null, passed: false },
    });
    expect(p.exams).toMatchObject({
      attempts: 2,
      best: { score: 2.5, total: 4, percent: 63 },
      last: { score: 0.33, total: 4, percent: 8 },
    });
    expect(p.exams.history.map((h: any) => [h.score, h.exam_size, h.exam_model, h.grader_engine])).toEqual([
      [2.5, 10, "extractive", "extractive"],
      [0.33, 10, "extractive", "extractive"],
    ]);
    expect(p.flashcards).toMatchObject({ generated: true, deck_title: DECK.deck_title, total: 5, reviewed: 2, due: 3 });
    expect(Date.parse(p.flashcards.next_due)).toBeGreaterThan(Date.now());
    // One chapter read and one quiz passed, of three chapters: 2 / 6.
    expect(p.completion).toEqual({ percent: 33, chapters: 3, chapters_read: 1, quizzes_passed: 1 });
  });
});

describe("isolation", () => {
  test("no key is 401; another learner's, another tenant's and a test key's requests are 404 on every endpoint", async () => {
    const testKey = await srv.createKey("acme", "test");
    const attempts: [string, string, unknown][] = [
      ["POST", "/chapters/0/quiz-attempts", { answers: [0, 1, 0] }],
      ["POST", "/chapters/0/read", undefined],
      ["POST", "/exam-attempts", { exam_size: 10, answers: [0, "", "", ""] }],
      ["POST", "/flashcards/reviews", { card_index: 2, rating: "good" }],
      ["GET", "/flashcards/due", undefined],
      ["GET", "/learner-progress", undefined],
      ["GET", `/chapters/0/quiz-attempts/${quizAttempt.attempt_id}`, undefined],
      ["GET", `/exam-attempts/${examAttempt.attempt_id}`, undefined],
    ];
    for (const [method, path, json] of attempts) {
      await expectGuarded(
        srv,
        { method, path: `/v2/courses/${course}${path}`, json },
        { key, user: "learner", otherTenantKey, testKey, otherUser: "classmate" },
      );
    }
    // The classmate's own course shows none of the learner's progress.
    const theirs = await get("/learner-progress", "classmate", key, othersCourse);
    expect(theirs.status).toBe(200);
    expect(theirs.body.completion.percent).toBe(0);
    expect(theirs.body.chapters[0].quiz.attempts).toBe(0);
    expect(theirs.body.flashcards.generated).toBe(false);
    // And nothing the refused requests sent was stored.
    expect((await get("/learner-progress")).body.chapters[0].quiz.attempts).toBe(2);
  });
});

describe("durability", () => {
  test("attempts, reviews and reads survive a restart on the same data directory", async () => {
    const before = await get("/learner-progress");
    const dueBefore = await get("/flashcards/due");
    await srv.stop({ keepData: true });
    srv = await startApp({ dataDir: srv.dataDir, env: { RATE_LIMIT_PER_MINUTE: "10000" } });
    const after = await get("/learner-progress");
    expect(after.status).toBe(200);
    const { as_of: _a, ...kept } = after.body;
    const { as_of: _b, ...was } = before.body;
    expect(kept).toEqual(was);
    expect((await get(`/chapters/0/quiz-attempts/${quizAttempt.attempt_id}`)).body).toEqual(quizAttempt);
    expect((await get(`/exam-attempts/${examAttempt.attempt_id}`)).body).toEqual(examAttempt);
    const dueAfter = await get("/flashcards/due");
    expect(dueAfter.body.cards).toEqual(dueBefore.body.cards);
    expect(dueAfter.body.next_due).toBe(dueBefore.body.next_due);
  });

  test("deleting the course deletes its attempts, reviews, schedules and reads", async () => {
    const before = await progressRows(srv.dataDir, course);
    expect(before).toEqual({
      quiz_attempts: 2,
      exam_attempts: 2,
      flashcard_schedules: 2,
      flashcard_reviews: 3,
      chapter_reads: 1,
    });
    // Only its owner may delete it: another learner of the tenant is refused, another tenant is told it does not exist.
    expect((await call(srv, `/v2/courses/${course}`, { method: "DELETE", key, user: "classmate" })).status).toBe(403);
    expect(
      (await call(srv, `/v2/courses/${course}`, { method: "DELETE", key: otherTenantKey, user: "learner" })).status,
    ).toBe(404);
    expect(await progressRows(srv.dataDir, course)).toEqual(before);
    const gone = await call(srv, `/v2/courses/${course}`, { method: "DELETE", key, user: "learner" });
    expect(gone.status).toBe(204);
    expect(await progressRows(srv.dataDir, course)).toEqual({
      quiz_attempts: 0,
      exam_attempts: 0,
      flashcard_schedules: 0,
      flashcard_reviews: 0,
      chapter_reads: 0,
    });
    expect((await get("/learner-progress")).status).toBe(404);
    expect((await call(srv, `/v2/courses/${course}`, as())).status).toBe(404);
    expect((await call(srv, `/v2/courses/${course}`, { method: "DELETE", key, user: "learner" })).status).toBe(404);
    // The classmate's course is untouched.
    expect((await get("/learner-progress", "classmate", key, othersCourse)).status).toBe(200);
  });
});

describe("OpenAPI", () => {
  test("every progress operation is documented with its body, 200 and errors", async () => {
    const doc = (await call(srv, "/openapi.json")).body;
    const ops: [string, string, string[]][] = [
      ["post", "/v2/courses/{course_id}/chapters/{order_index}/quiz-attempts", ["200", "404", "422"]],
      ["get", "/v2/courses/{course_id}/chapters/{order_index}/quiz-attempts/{attempt_id}", ["200", "404"]],
      ["post", "/v2/courses/{course_id}/chapters/{order_index}/read", ["200", "404"]],
      ["post", "/v2/courses/{course_id}/exam-attempts", ["200", "404", "422", "503"]],
      ["get", "/v2/courses/{course_id}/exam-attempts/{attempt_id}", ["200", "404"]],
      ["post", "/v2/courses/{course_id}/flashcards/reviews", ["200", "404", "422"]],
      ["get", "/v2/courses/{course_id}/flashcards/due", ["200", "404"]],
      ["get", "/v2/courses/{course_id}/learner-progress", ["200", "404"]],
    ];
    for (const [method, path, statuses] of ops) {
      const op = doc.paths[path]?.[method];
      expect({ path, documented: Boolean(op) }).toEqual({ path, documented: true });
      for (const s of statuses) expect({ path, s, has: s in op.responses }).toEqual({ path, s, has: true });
      expect(op.tags).toEqual(["progress"]);
    }
    const review =
      doc.paths["/v2/courses/{course_id}/flashcards/reviews"].post.requestBody.content["application/json"].schema;
    expect(review.required.sort()).toEqual(["card_index", "rating"]);
    expect(JSON.stringify(review.properties.rating)).toContain("easy");
    const progress =
      doc.paths["/v2/courses/{course_id}/learner-progress"].get.responses["200"].content["application/json"].schema;
    expect(Object.keys(progress.properties)).toEqual(
      expect.arrayContaining(["completion", "chapters", "exams", "flashcards"]),
    );
  });
});
