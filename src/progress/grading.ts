/**
 * Grading a set of answers: multiple choice exactly, short answers and worked problems against a
 * rubric with partial credit (one mark per rubric point: met 1, partly 0.5, not met 0).
 */
import pLimit from "p-limit";
import type { ExamQuestion, RubricMark } from "../llm/artefacts.ts";
import type { RubricMarking } from "./rubric-coverage.ts";
import { share } from "./share.ts";

/** An answer as sent: a choice index for mcq, text otherwise, null when left blank. */
export type Answer = number | string | null;

export interface RubricResult {
  point: string;
  met: RubricMark;
  credit: number;
  comment: string;
}

export interface QuestionResult {
  index: number;
  type: ExamQuestion["type"];
  correct: boolean;
  /** Credit earned, 0-1. */
  score: number;
  answer: Answer;
  /** The correct choice's index for mcq, the model answer otherwise. */
  expected: number | string;
  /** The correct choice's text for mcq, the model answer otherwise. */
  expected_text: string;
  explanation: string;
  rubric?: RubricResult[];
}

export interface Graded {
  results: QuestionResult[];
  /** Sum of the questions' credit, to two decimals. */
  score: number;
  total: number;
}

/** Marks one free-text answer against a rubric: the built-in coverage grader or a model. */
export interface RubricGrader {
  engine: string;
  model: string;
  mark(input: { question: string; reference: string; rubric: string[]; answer: string }): Promise<RubricMarking>;
}

const CREDIT: Record<RubricMark, number> = { yes: 1, partly: 0.5, no: 0 };

/** A free-text answer counts as correct from half the question's credit on. */
const CORRECT_FROM = 0.5;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** What a free-text question is marked against: its rubric, or for a worked problem its steps and final answer. */
function rubricOf(q: Exclude<ExamQuestion, { type: "mcq" }>): string[] {
  return q.type === "short_answer" ? q.rubric : [...q.steps, q.answer];
}

function gradeChoice(q: Extract<ExamQuestion, { type: "mcq" }>, index: number, answer: Answer): QuestionResult {
  const correct = answer === q.answer;
  return {
    index,
    type: "mcq",
    correct,
    score: correct ? 1 : 0,
    answer,
    expected: q.answer,
    expected_text: q.choices[q.answer] ?? "",
    explanation: q.explanation,
  };
}

async function gradeText(
  q: Exclude<ExamQuestion, { type: "mcq" }>,
  index: number,
  answer: Answer,
  grader: RubricGrader,
): Promise<QuestionResult> {
  const rubric = rubricOf(q);
  const text = typeof answer === "string" ? answer.trim() : "";
  // A blank answer meets no point; no grader (and no model call) is needed to say so.
  const marking: RubricMarking =
    text === ""
      ? {
          points: rubric.map((point) => ({ point, met: "no", comment: "No answer given." })),
          feedback: "No answer was given.",
        }
      : await grader.mark({ question: q.prompt, reference: q.answer, rubric, answer: text });
  const points = marking.points.map((p) => ({ point: p.point, met: p.met, credit: CREDIT[p.met], comment: p.comment }));
  const score = round2(
    share(
      points.reduce((s, p) => s + p.credit, 0),
      points.length,
    ),
  );
  const steps = q.type === "worked_problem" ? ` Worked solution: ${q.steps.join(" ")}` : "";
  return {
    index,
    type: q.type,
    correct: score >= CORRECT_FROM,
    score,
    answer,
    expected: q.answer,
    expected_text: q.answer,
    explanation: `${marking.feedback}${steps}`,
    rubric: points,
  };
}

/** Grades answers already checked against their questions (see answers.ts); free-text answers a few at a time. */
export async function gradeAnswers(
  questions: ExamQuestion[],
  answers: Answer[],
  grader: RubricGrader,
): Promise<Graded> {
  const limit = pLimit(4);
  const results = await Promise.all(
    questions.map((q, i) =>
      q.type === "mcq" ? gradeChoice(q, i, answers[i]!) : limit(() => gradeText(q, i, answers[i]!, grader)),
    ),
  );
  return { results, score: round2(results.reduce((s, r) => s + r.score, 0)), total: questions.length };
}
