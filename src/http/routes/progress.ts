/** Learning progress: quiz and exam attempts, flashcard reviews and due cards, chapters read, the learner's standing. */
import { Elysia, t } from "elysia";
import { loadCourseOf } from "../../courses/read.ts";
import { markChapterRead } from "../../progress/chapters.ts";
import { readExamAttempt, submitExamAttempt } from "../../progress/exam-attempts.ts";
import { dueCards, reviewCard } from "../../progress/flashcard-reviews.ts";
import { readQuizAttempt, submitQuizAttempt } from "../../progress/quiz-attempts.ts";
import { RATINGS } from "../../progress/scheduling.ts";
import { learnerProgress } from "../../progress/standing.ts";
import type { Services } from "../../services.ts";
import { CourseIdParams, errors, JsonInteger, modelFailures, UserHeaders } from "../schemas.ts";
import { ownerOf } from "../user.ts";
import {
  Answers,
  AttemptIdParam,
  CardSchedule,
  ChapterParams,
  ExamAttempt,
  LearnerProgress,
  ModelKey,
  QuizAttempt,
} from "./progress-schemas.ts";

const LEARNER = "Per learner: another learner's or tenant's course is 404, and progress is never shared.";

export const progressRoutes = (svc: Services) => {
  const stores = { db: svc.sql };
  const access = async (request: Request, courseId: string) => {
    const owner = await ownerOf(svc, request);
    return { owner, course: await loadCourseOf(stores.db, owner, courseId) };
  };

  return new Elysia({ name: "progress" })
    .post(
      "/v2/courses/:course_id/chapters/:order_index/quiz-attempts",
      async ({ request, params, body }) => {
        const { owner, course } = await access(request, params.course_id);
        return submitQuizAttempt(stores, owner, course, params.order_index, body.answers, svc.clock.now());
      },
      {
        headers: UserHeaders,
        params: ChapterParams,
        body: t.Object({ answers: Answers }),
        response: { 200: QuizAttempt, ...errors("NOT_FOUND", "CHAPTER_NOT_FOUND", "QUIZ_NOT_FOUND") },
        detail: {
          summary: "Grade and store an attempt at a chapter's quiz",
          description: `Multiple-choice answers are graded exactly. 422 names the broken rule: one answer per question (rule one_answer_per_question), an mcq answer must index one of its choices (mcq_choice_index). 404 CHAPTER_NOT_FOUND for a chapter not written yet. ${LEARNER}`,
          tags: ["progress"],
        },
      },
    )
    .get(
      "/v2/courses/:course_id/chapters/:order_index/quiz-attempts/:attempt_id",
      async ({ request, params }) => {
        const { owner, course } = await access(request, params.course_id);
        return readQuizAttempt(stores.db, owner, course.id, params.order_index, params.attempt_id);
      },
      {
        headers: UserHeaders,
        params: t.Composite([ChapterParams, t.Object({ attempt_id: AttemptIdParam })]),
        response: { 200: QuizAttempt, ...errors("NOT_FOUND", "ATTEMPT_NOT_FOUND") },
        detail: {
          summary: "A stored quiz attempt, as it was graded",
          description: `404 ATTEMPT_NOT_FOUND for an unknown id. ${LEARNER}`,
          tags: ["progress"],
        },
      },
    )
    .post(
      "/v2/courses/:course_id/chapters/:order_index/read",
      async ({ request, params }) => {
        const { owner, course } = await access(request, params.course_id);
        return markChapterRead(stores, owner, course.id, params.order_index, svc.clock.now());
      },
      {
        headers: UserHeaders,
        params: ChapterParams,
        response: {
          200: t.Object({
            course_id: t.String(),
            order_index: t.Integer(),
            title: t.String(),
            read: t.Boolean(),
            read_at: t.String(),
          }),
          ...errors("NOT_FOUND", "CHAPTER_NOT_FOUND"),
        },
        detail: {
          summary: "Mark a chapter read",
          description: `Idempotent: marking it again keeps the first read_at. 404 CHAPTER_NOT_FOUND for a chapter not written yet. ${LEARNER}`,
          tags: ["progress"],
        },
      },
    )
    .post(
      "/v2/courses/:course_id/exam-attempts",
      async ({ request, params, body }) => {
        const { owner, course } = await access(request, params.course_id);
        return submitExamAttempt(
          { ...stores, llm: svc.llm },
          owner,
          course,
          { examSize: body.exam_size, answers: body.answers, modelKey: body.model_key },
          svc.clock.now(),
        );
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        body: t.Object({
          exam_size: t.Integer({
            minimum: 10,
            maximum: 50,
            description: "Size of the cached exam answered (POST generate-exam)",
          }),
          answers: Answers,
          model_key: t.Optional(ModelKey),
        }),
        response: { 200: ExamAttempt, ...errors("NOT_FOUND", "EXAM_NOT_FOUND", modelFailures("materials")) },
        detail: {
          summary: "Grade and store an attempt at the cached exam of a size",
          description: `Multiple choice is graded exactly. Short answers and worked problems are marked against their rubric (a worked problem's steps and final answer) point by point, with partial credit: by the model that wrote the exam when the server offers it, else by the built-in grader (coverage of each point's key terms and phrases, by stem). 404 EXAM_NOT_FOUND when no exam of that size was generated. 422 names the broken rule (one_answer_per_question, mcq_choice_index, text_answer). 503 when the grading model is unavailable (nothing is stored). ${LEARNER}`,
          tags: ["progress"],
        },
      },
    )
    .get(
      "/v2/courses/:course_id/exam-attempts/:attempt_id",
      async ({ request, params }) => {
        const { owner, course } = await access(request, params.course_id);
        return readExamAttempt(stores.db, owner, course.id, params.attempt_id);
      },
      {
        headers: UserHeaders,
        params: t.Object({ course_id: CourseIdParams.properties.course_id, attempt_id: AttemptIdParam }),
        response: { 200: ExamAttempt, ...errors("NOT_FOUND", "ATTEMPT_NOT_FOUND") },
        detail: {
          summary: "A stored exam attempt, as it was graded",
          description: `404 ATTEMPT_NOT_FOUND for an unknown id. ${LEARNER}`,
          tags: ["progress"],
        },
      },
    )
    .post(
      "/v2/courses/:course_id/flashcards/reviews",
      async ({ request, params, body }) => {
        const { owner, course } = await access(request, params.course_id);
        return reviewCard(
          stores,
          owner,
          course.id,
          { cardIndex: body.card_index, rating: body.rating, modelKey: body.model_key },
          svc.clock.now(),
        );
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        body: t.Object({
          card_index: JsonInteger({ minimum: 0, description: "Index of the card in the deck's cards" }),
          rating: t.Union(RATINGS.map((r) => t.Literal(r))),
          model_key: t.Optional(ModelKey),
        }),
        response: {
          200: t.Composite([
            CardSchedule,
            t.Object({
              rating: t.String(),
              reviewed_at: t.String(),
              scheduled_days: t.Integer({ description: "Days until due (0 while learning)" }),
            }),
          ]),
          ...errors("NOT_FOUND", "FLASHCARDS_NOT_FOUND"),
        },
        detail: {
          summary: "Record a flashcard review and schedule the card (FSRS)",
          description: `Schedules the card with FSRS from its review history; due says when it comes back (minutes for again, days for easy). 404 FLASHCARDS_NOT_FOUND when no deck was generated; 422 for a card_index outside the deck (rule card_in_deck) or a rating other than again, hard, good, easy. ${LEARNER}`,
          tags: ["progress"],
        },
      },
    )
    .get(
      "/v2/courses/:course_id/flashcards/due",
      async ({ request, params, query }) => {
        const { owner, course } = await access(request, params.course_id);
        return dueCards(stores, owner, course.id, { modelKey: query.model_key, limit: query.limit }, svc.clock.now());
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        query: t.Object({
          limit: t.Optional(
            t.Integer({ minimum: 1, maximum: 500, description: "Most cards listed (total_due counts them all)" }),
          ),
          model_key: t.Optional(ModelKey),
        }),
        response: {
          200: t.Object({
            course_id: t.String(),
            deck_title: t.String(),
            model: t.String(),
            now: t.String(),
            total_due: t.Integer(),
            cards: t.Array(CardSchedule),
            next_due: t.Nullable(t.String({ description: "When the next card not yet due comes due" })),
          }),
          ...errors("NOT_FOUND", "FLASHCARDS_NOT_FOUND"),
        },
        detail: {
          summary: "The flashcards due now, in review order",
          description: `Reviewed cards whose due time has passed, most overdue first, then cards never reviewed in deck order. 404 FLASHCARDS_NOT_FOUND when no deck was generated. ${LEARNER}`,
          tags: ["progress"],
        },
      },
    )
    .get(
      "/v2/courses/:course_id/learner-progress",
      async ({ request, params }) => {
        const { owner, course } = await access(request, params.course_id);
        return learnerProgress(stores, owner, course, svc.clock.now());
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        response: {
          200: LearnerProgress,
          ...errors("NOT_FOUND"),
        },
        detail: {
          summary: "The learner's standing in the course",
          description: `Chapters read, best and last quiz score per chapter, exam attempts, flashcards (total, due now, next due time) and the completion figure. ${LEARNER}`,
          tags: ["progress"],
        },
      },
    );
};
