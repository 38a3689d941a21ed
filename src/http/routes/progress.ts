/** Learning progress: quiz and exam attempts, flashcard reviews and due cards, chapters read, the learner's standing. */
import { Elysia, t } from "elysia";
import { ownedCourse } from "../../materials/course-content.ts";
import { markChapterRead } from "../../progress/chapters.ts";
import { readExamAttempt, submitExamAttempt } from "../../progress/exam-attempts.ts";
import { dueCards, reviewCard } from "../../progress/flashcard-reviews.ts";
import { readQuizAttempt, submitQuizAttempt } from "../../progress/quiz-attempts.ts";
import { RATINGS } from "../../progress/scheduling.ts";
import { learnerProgress } from "../../progress/standing.ts";
import type { Services } from "../../services.ts";
import { CourseIdParams, errors, UserHeaders } from "../schemas.ts";
import { ownerOf } from "../user.ts";

const ChapterParams = t.Object({
  course_id: CourseIdParams.properties.course_id,
  order_index: t.Integer({ minimum: 0, maximum: 1000, description: "The chapter's order_index (0-based)" }),
});

const ModelKey = t.String({ minLength: 1, maxLength: 200, description: "Model that made the cached deck or exam; default: the course's first one" });

// t.Number, not t.Integer: Elysia's integer also takes digit strings and would turn the short answer "10" into a choice index.
// Whether a number is a valid choice is checked against the question (rule mcq_choice_index).
const Answer = t.Union([t.Number(), t.String({ maxLength: 10_000 }), t.Null()], {
  description: "Index of the chosen choice for mcq, text for short answers and worked problems, null when left blank",
});
const Answers = t.Array(Answer, { maxItems: 100, description: "One answer per question, in the questions' order" });

const RubricResult = t.Object({
  point: t.String(),
  met: t.Union([t.Literal("yes"), t.Literal("partly"), t.Literal("no")]),
  credit: t.Number({ description: "1 met, 0.5 partly met, 0 not met" }),
  comment: t.String(),
});
const QuestionResult = t.Object({
  index: t.Integer(),
  type: t.String({ description: "mcq, short_answer or worked_problem" }),
  correct: t.Boolean({ description: "mcq: the right choice; free text: at least half the question's credit" }),
  score: t.Number({ description: "Credit earned, 0-1 (partial for free text: the mean of its rubric points' credit)" }),
  answer: t.Union([t.Integer(), t.String(), t.Null()]),
  expected: t.Union([t.Integer(), t.String()], { description: "The correct choice's index for mcq, the model answer otherwise" }),
  expected_text: t.String({ description: "The correct choice's text for mcq, the model answer otherwise" }),
  explanation: t.String({ description: "mcq: why the answer is right; free text: the grader's feedback" }),
  rubric: t.Optional(t.Array(RubricResult, { description: "Free text only: the mark of each rubric point" })),
});

const QuizAttempt = t.Object({
  attempt_id: t.String(),
  course_id: t.String(),
  order_index: t.Integer(),
  score: t.Number(),
  total: t.Integer(),
  results: t.Array(QuestionResult),
  created_at: t.String(),
});
const ExamAttempt = t.Object({
  attempt_id: t.String(),
  course_id: t.String(),
  exam_size: t.Integer(),
  exam_model: t.String(),
  score: t.Number({ description: "Sum of the questions' credit" }),
  total: t.Integer(),
  percent: t.Integer(),
  results: t.Array(QuestionResult),
  grader: t.Object({ engine: t.String(), model: t.String() }, { description: "Who marked the free-text answers" }),
  created_at: t.String(),
});
const AttemptIdParam = t.String({ description: "attempt_id of a stored attempt" });

const AttemptSummary = t.Object({
  attempt_id: t.String(),
  score: t.Number(),
  total: t.Integer(),
  percent: t.Integer(),
  created_at: t.String(),
});
const BestAndLast = {
  attempts: t.Integer(),
  best: t.Nullable(AttemptSummary),
  last: t.Nullable(AttemptSummary),
};

const CardSchedule = t.Object({
  card_index: t.Integer(),
  front: t.String(),
  back: t.String(),
  due: t.Nullable(t.String({ description: "When the card is next due; null for a card never reviewed (due from the start)" })),
  state: t.String({ description: "new, learning, review or relearning (FSRS)" }),
  reps: t.Integer(),
  lapses: t.Integer(),
  last_review: t.Nullable(t.String()),
});

const LEARNER = "Per learner: another learner's or tenant's course is 404, and progress is never shared.";

export const progressRoutes = (svc: Services) => {
  const access = (request: Request, courseId: string) => {
    const owner = ownerOf(svc, request);
    return { owner, course: ownedCourse(svc.sqlite, owner, courseId) };
  };

  return new Elysia({ name: "progress" })
    .post(
      "/v2/courses/:course_id/chapters/:order_index/quiz-attempts",
      ({ request, params, body }) => {
        const { owner, course } = access(request, params.course_id);
        return submitQuizAttempt(svc.sqlite, owner, course, params.order_index, body.answers);
      },
      {
        headers: UserHeaders,
        params: ChapterParams,
        body: t.Object({ answers: Answers }),
        response: { 200: QuizAttempt, ...errors(401, 404, 422, 429) },
        detail: {
          summary: "Grade and store an attempt at a chapter's quiz",
          description: `Multiple-choice answers are graded exactly. 422 names the broken rule: one answer per question (rule one_answer_per_question), an mcq answer must index one of its choices (mcq_choice_index). 404 CHAPTER_NOT_FOUND for a chapter not written yet. ${LEARNER}`,
          tags: ["progress"],
        },
      },
    )
    .get(
      "/v2/courses/:course_id/chapters/:order_index/quiz-attempts/:attempt_id",
      ({ request, params }) => {
        const { owner, course } = access(request, params.course_id);
        return readQuizAttempt(svc.sqlite, owner, course.id, params.order_index, params.attempt_id);
      },
      {
        headers: UserHeaders,
        params: t.Composite([ChapterParams, t.Object({ attempt_id: AttemptIdParam })]),
        response: { 200: QuizAttempt, ...errors(401, 404, 422, 429) },
        detail: { summary: "A stored quiz attempt, as it was graded", description: `404 ATTEMPT_NOT_FOUND for an unknown id. ${LEARNER}`, tags: ["progress"] },
      },
    )
    .post(
      "/v2/courses/:course_id/chapters/:order_index/read",
      ({ request, params }) => {
        const { owner, course } = access(request, params.course_id);
        return markChapterRead(svc.sqlite, owner, course.id, params.order_index);
      },
      {
        headers: UserHeaders,
        params: ChapterParams,
        response: {
          200: t.Object({ course_id: t.String(), order_index: t.Integer(), title: t.String(), read: t.Boolean(), read_at: t.String() }),
          ...errors(401, 404, 422, 429),
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
      ({ request, params, body }) => {
        const { owner, course } = access(request, params.course_id);
        return submitExamAttempt(svc, owner, course, { examSize: body.exam_size, answers: body.answers, modelKey: body.model_key });
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        body: t.Object({
          exam_size: t.Integer({ minimum: 10, maximum: 50, description: "Size of the cached exam answered (POST generate-exam)" }),
          answers: Answers,
          model_key: t.Optional(ModelKey),
        }),
        response: { 200: ExamAttempt, ...errors(401, 404, 422, 429, 503) },
        detail: {
          summary: "Grade and store an attempt at the cached exam of a size",
          description: `Multiple choice is graded exactly. Short answers and worked problems are marked against their rubric (a worked problem's steps and final answer) point by point, with partial credit: by the model that wrote the exam when the server offers it, else by the built-in grader (coverage of each point's key terms and phrases, by stem). 404 EXAM_NOT_FOUND when no exam of that size was generated. 422 names the broken rule (one_answer_per_question, mcq_choice_index, text_answer). 503 when the grading model is unavailable (nothing is stored). ${LEARNER}`,
          tags: ["progress"],
        },
      },
    )
    .get(
      "/v2/courses/:course_id/exam-attempts/:attempt_id",
      ({ request, params }) => {
        const { owner, course } = access(request, params.course_id);
        return readExamAttempt(svc.sqlite, owner, course.id, params.attempt_id);
      },
      {
        headers: UserHeaders,
        params: t.Object({ course_id: CourseIdParams.properties.course_id, attempt_id: AttemptIdParam }),
        response: { 200: ExamAttempt, ...errors(401, 404, 422, 429) },
        detail: { summary: "A stored exam attempt, as it was graded", description: `404 ATTEMPT_NOT_FOUND for an unknown id. ${LEARNER}`, tags: ["progress"] },
      },
    )
    .post(
      "/v2/courses/:course_id/flashcards/reviews",
      ({ request, params, body }) => {
        const { owner, course } = access(request, params.course_id);
        return reviewCard(svc.sqlite, owner, course.id, { cardIndex: body.card_index, rating: body.rating, modelKey: body.model_key });
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        body: t.Object({
          card_index: t.Integer({ minimum: 0, description: "Index of the card in the deck's cards" }),
          rating: t.Union(RATINGS.map((r) => t.Literal(r))),
          model_key: t.Optional(ModelKey),
        }),
        response: {
          200: t.Composite([
            CardSchedule,
            t.Object({ rating: t.String(), reviewed_at: t.String(), scheduled_days: t.Integer({ description: "Days until due (0 while learning)" }) }),
          ]),
          ...errors(401, 404, 422, 429),
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
      ({ request, params, query }) => {
        const { owner, course } = access(request, params.course_id);
        return dueCards(svc.sqlite, owner, course.id, { modelKey: query.model_key, limit: query.limit });
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        query: t.Object({
          limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, description: "Most cards listed (total_due counts them all)" })),
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
          ...errors(401, 404, 422, 429),
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
      ({ request, params }) => {
        const { owner, course } = access(request, params.course_id);
        return learnerProgress(svc.sqlite, owner, course);
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        response: {
          200: t.Object({
            course_id: t.String(),
            course_status: t.String(),
            as_of: t.String(),
            completion: t.Object(
              { percent: t.Integer(), chapters: t.Integer(), chapters_read: t.Integer(), quizzes_passed: t.Integer() },
              { description: "percent = floor(100 × (chapters read + chapter quizzes passed) / (2 × chapters)); a quiz is passed by an attempt with at least two thirds right" },
            ),
            chapters: t.Array(
              t.Object({
                order_index: t.Integer(),
                title: t.String(),
                written: t.Boolean(),
                read: t.Boolean(),
                read_at: t.Nullable(t.String()),
                quiz: t.Object({ questions: t.Integer(), ...BestAndLast, passed: t.Boolean() }),
              }),
            ),
            exams: t.Object({
              ...BestAndLast,
              history: t.Array(
                t.Composite([AttemptSummary, t.Object({ exam_size: t.Integer(), exam_model: t.String(), grader_engine: t.String() })]),
              ),
            }),
            flashcards: t.Object({
              generated: t.Boolean(),
              deck_title: t.Nullable(t.String()),
              total: t.Integer(),
              reviewed: t.Integer(),
              due: t.Integer(),
              next_due: t.Nullable(t.String()),
            }),
          }),
          ...errors(401, 404, 422, 429),
        },
        detail: {
          summary: "The learner's standing in the course",
          description: `Chapters read, best and last quiz score per chapter, exam attempts, flashcards (total, due now, next due time) and the completion figure. ${LEARNER}`,
          tags: ["progress"],
        },
      },
    );
};
