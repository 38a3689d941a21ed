/** Answers checked against their questions before grading: every broken rule is a 422 naming it. */
import { AppError } from "../errors.ts";
import type { ExamQuestion } from "../llm/artefacts.ts";
import type { Answer } from "./grading.ts";

interface Problem {
  path: string;
  field: string;
  rule: string;
  message: string;
}

function answerProblem(q: ExamQuestion, a: Answer, i: number): Problem | null {
  const field = `answers[${i}]`;
  const at = { path: `/answers/${i}`, field };
  if (a === null) return null;
  if (q.type === "mcq") {
    const last = q.choices.length - 1;
    if (typeof a === "number" && Number.isInteger(a) && a >= 0 && a <= last) return null;
    return {
      ...at,
      rule: "mcq_choice_index",
      message: `${field} must be the index of one of the question's ${q.choices.length} choices (0-${last}), or null`,
    };
  }
  if (typeof a === "string") return null;
  return { ...at, rule: "text_answer", message: `${field} must be text (the question is ${q.type}), or null` };
}

/** One answer per question, in order: an index for mcq, text for short answers and worked problems, null for blank. */
export function checkAnswers(questions: ExamQuestion[], answers: Answer[], what: "quiz" | "exam"): void {
  if (answers.length !== questions.length) {
    const message = `answers must hold one answer per question: the ${what} has ${questions.length} questions, ${answers.length} answers were sent`;
    throw new AppError("VALIDATION_ERROR", message, [
      {
        path: "/answers",
        field: "answers",
        rule: "one_answer_per_question",
        message,
        expected: questions.length,
        received: answers.length,
      },
    ]);
  }
  const problems = questions.map((q, i) => answerProblem(q, answers[i]!, i)).filter((p): p is Problem => p !== null);
  if (problems.length === 0) return;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more in details)` : "";
  throw new AppError("VALIDATION_ERROR", `${problems[0]!.message}${more}`, problems);
}
