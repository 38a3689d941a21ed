/**
 * Grading of quiz and exam answers, in the browser from the questions the API returns. One small
 * module so that a server-side grader (POST .../quiz-attempts) can replace it without touching the pages.
 */
export interface Question {
  type: string;
  prompt: string;
  choices?: string[];
  answer: unknown;
  explanation?: string | null;
  rubric?: string[];
}

export interface GradedAnswer {
  correct: boolean;
  /** The right answer in words. */
  expected: string;
  explanation: string | null;
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** Multiple choice: the chosen index. Written answers: right when they hold most words of each rubric point or of the answer. */
export function gradeAnswer(q: Question, given: string | number | null): GradedAnswer {
  if (q.type === "mcq" && q.choices) {
    const right = Number(q.answer);
    return { correct: given === right, expected: q.choices[right] ?? "", explanation: q.explanation ?? null };
  }
  const expected = String(q.answer ?? "");
  const said = words(String(given ?? ""));
  const points = q.rubric?.length ? q.rubric : [expected];
  const covered = points.filter((p) => {
    const need = [...words(p)].filter((w) => w.length > 3);
    return need.length > 0 && need.filter((w) => said.has(w)).length / need.length >= 0.5;
  });
  return { correct: covered.length / points.length >= 0.5, expected, explanation: q.rubric?.length ? q.rubric.join("; ") : null };
}

export function score(results: GradedAnswer[]): { right: number; total: number; percent: number } {
  const right = results.filter((r) => r.correct).length;
  return { right, total: results.length, percent: results.length ? Math.round((100 * right) / results.length) : 0 };
}
