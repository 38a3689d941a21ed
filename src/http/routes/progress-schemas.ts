/** Request and response schemas of learning progress (validation and OpenAPI). */
import { t } from "elysia";
import { CourseIdParams } from "../schemas.ts";

export const ChapterParams = t.Object({
  course_id: CourseIdParams.properties.course_id,
  order_index: t.Integer({ minimum: 0, maximum: 1000, description: "The chapter's order_index (0-based)" }),
});

export const ModelKey = t.String({
  minLength: 1,
  maxLength: 200,
  description: "Model that made the cached deck or exam; default: the course's first one",
});

// t.Number, not t.Integer: Elysia's integer also takes digit strings and would turn the short answer "10" into a choice index.
// Whether a number is a valid choice is checked against the question (rule mcq_choice_index).
const Answer = t.Union([t.Number(), t.String({ maxLength: 10_000 }), t.Null()], {
  description: "Index of the chosen choice for mcq, text for short answers and worked problems, null when left blank",
});
export const Answers = t.Array(Answer, {
  maxItems: 100,
  description: "One answer per question, in the questions' order",
});

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
  expected: t.Union([t.Integer(), t.String()], {
    description: "The correct choice's index for mcq, the model answer otherwise",
  }),
  expected_text: t.String({ description: "The correct choice's text for mcq, the model answer otherwise" }),
  explanation: t.String({ description: "mcq: why the answer is right; free text: the grader's feedback" }),
  rubric: t.Optional(t.Array(RubricResult, { description: "Free text only: the mark of each rubric point" })),
});

export const QuizAttempt = t.Object({
  attempt_id: t.String(),
  course_id: t.String(),
  order_index: t.Integer(),
  score: t.Number(),
  total: t.Integer(),
  results: t.Array(QuestionResult),
  created_at: t.String(),
});
export const ExamAttempt = t.Object({
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
export const AttemptIdParam = t.String({ description: "attempt_id of a stored attempt" });

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

export const CardSchedule = t.Object({
  card_index: t.Integer(),
  front: t.String(),
  back: t.String(),
  due: t.Nullable(
    t.String({ description: "When the card is next due; null for a card never reviewed (due from the start)" }),
  ),
  state: t.String({ description: "new, learning, review or relearning (FSRS)" }),
  reps: t.Integer(),
  lapses: t.Integer(),
  last_review: t.Nullable(t.String()),
});

export const LearnerProgress = t.Object({
  course_id: t.String(),
  course_status: t.String(),
  as_of: t.String(),
  completion: t.Object(
    { percent: t.Integer(), chapters: t.Integer(), chapters_read: t.Integer(), quizzes_passed: t.Integer() },
    {
      description:
        "percent = floor(100 × (chapters read + chapter quizzes passed) / (2 × chapters)); a quiz is passed by an attempt with at least two thirds right",
    },
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
      t.Composite([
        AttemptSummary,
        t.Object({ exam_size: t.Integer(), exam_model: t.String(), grader_engine: t.String() }),
      ]),
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
});
