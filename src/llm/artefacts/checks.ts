/**
 * Rules the JSON schemas cannot express; their messages go back to the model when it breaks them,
 * and the extractive engine applies the same ones to what it builds: a multiple-choice answer
 * never given away by its own prompt, and no two questions of one course asking the same thing.
 */
import { contentStems, words } from "../extractive/text.ts";
import type { ExamQuestion, Flashcard, McqQuestion } from "../schemas.ts";
import { definesTerm, questionProblems } from "./item-checks.ts";

const normal = (s: string) => words(s.toLowerCase()).join(" ");

/**
 * Whether `prompt` gives `answer` away: the answer written in it, or every content word of a
 * multi-word answer there (a figure counts as given away only when written exactly).
 */
export function answerLeaks(prompt: string, answer: string): boolean {
  const a = normal(answer);
  if (a.length === 0) return false;
  if (` ${normal(prompt)} `.includes(` ${a} `)) return true;
  const stems = contentStems(answer);
  if (stems.length < 2) return false;
  const inPrompt = new Set(contentStems(prompt));
  return stems.every((s) => inPrompt.has(s));
}

/** Content-word set of a prompt, for near-duplicate checks. */
export const promptStems = (prompt: string) => new Set(contentStems(prompt));

/** Two prompts ask the same thing when most of their content words are shared (Jaccard ≥ 0.6). */
export function nearDuplicate(a: Set<string>, b: Set<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  let shared = 0;
  for (const s of a) if (b.has(s)) shared++;
  return shared / (a.size + b.size - shared) >= NEAR_DUPLICATE;
}
const NEAR_DUPLICATE = 0.6;

export function mcqProblems(q: McqQuestion, where: string): string[] {
  const out: string[] = [];
  if (q.answer >= q.choices.length)
    out.push(`${where}/answer: ${q.answer} is not an index into its ${q.choices.length} choices`);
  if (new Set(q.choices.map((c) => c.trim().toLowerCase())).size !== q.choices.length)
    out.push(`${where}/choices: choices must differ`);
  const right = q.choices[q.answer];
  if (right !== undefined && answerLeaks(q.prompt, right))
    out.push(`${where}/prompt: the prompt gives the correct choice away ("${right}"); ask without naming it`);
  return out;
}

/** Questions whose prompt repeats an earlier one of the batch. */
function duplicateProblems(prompts: string[], where: (i: number) => string): string[] {
  const seen: Set<string>[] = [];
  const out: string[] = [];
  prompts.forEach((p, i) => {
    const stems = promptStems(p);
    if (seen.some((s) => nearDuplicate(s, stems)))
      out.push(`${where(i)}/prompt: "${p}" repeats a question already asked; ask about something else`);
    seen.push(stems);
  });
  return out;
}

export const quizProblems = (questions: McqQuestion[]) => [
  ...questions.flatMap((q, i) => mcqProblems(q, `/quiz/questions/${i}`)),
  ...duplicateProblems(
    questions.map((q) => q.prompt),
    (i) => `/quiz/questions/${i}`,
  ),
];

/**
 * Per-question rules. Repeats are not among them: a batch with one repeated question still has
 * good ones, so the exam builder drops the repeat and asks again rather than failing the batch.
 */
export const examProblems = (questions: ExamQuestion[]) =>
  questions.flatMap((q, i) => (q.type === "mcq" ? mcqProblems(q, `/questions/${i}`) : []));

/**
 * The item checks (item-checks.ts) as messages for a model: what a teacher would not show, one
 * message per failing question, so it can write that question again.
 */
export const itemProblems = (questions: ExamQuestion[], where: (i: number) => string) =>
  questions.flatMap((q, i) => questionProblems(q).map((p) => `${where(i)}: ${p}`));

export const cardProblems = (cards: Flashcard[]) =>
  cards.flatMap((c, i) =>
    definesTerm(c)
      ? []
      : [
          `/cards/${i}: the back does not say what "${c.front}" is or does; write the front as the term and the back as "<term> is …" or "<term> returns …"`,
        ],
  );

/** The questions that pass the item checks: a model's question still failing them once told is left out. */
export const passing = <Q extends ExamQuestion>(questions: Q[]) =>
  questions.filter((q) => questionProblems(q).length === 0);

/**
 * A refine step whose problems are told to the model once: a model that cannot mend them on the
 * second try has its failing items left out (or replaced) rather than the whole reply refused.
 */
export function tellOnce<T>(check: (value: T) => string[]): (value: T) => string[] {
  let told = false;
  return (value) => {
    if (told) return [];
    const problems = check(value);
    told = problems.length > 0;
    return problems;
  };
}
