/** Rules the JSON schemas cannot express; their messages go back to the model when it breaks them. */
import type { ExamQuestion, McqQuestion } from "../schemas.ts";

export function mcqProblems(q: McqQuestion, where: string): string[] {
  const out: string[] = [];
  if (q.answer >= q.choices.length) out.push(`${where}/answer: ${q.answer} is not an index into its ${q.choices.length} choices`);
  if (new Set(q.choices.map((c) => c.trim().toLowerCase())).size !== q.choices.length) out.push(`${where}/choices: choices must differ`);
  return out;
}

export const quizProblems = (questions: McqQuestion[]) => questions.flatMap((q, i) => mcqProblems(q, `/quiz/questions/${i}`));

export const examProblems = (questions: ExamQuestion[]) =>
  questions.flatMap((q, i) => (q.type === "mcq" ? mcqProblems(q, `/questions/${i}`) : []));
