/** A chapter's quiz, asked about what the learner reads: the chapter's own content, cited to its passages. */
import { type McqQuestion, QUIZ_SIZE } from "../schemas.ts";
import type { Passage } from "../types.ts";
import { materialsOf } from "./material.ts";
import { promptKind } from "./prompt-kinds.ts";
import { poolOf, quizOf } from "./questions.ts";
import { withLikeSwaps } from "./subject-role.ts";

/** Blanks are at most this share of a quiz (questions.ts keeps the same share). */
const MAX_BLANK_SHARE = 0.4;

export function quizFor(title: string, content: string, keyConcepts: string[], passages: Passage[]): McqQuestion[] {
  const sources = passages.map((p) => ({ text: p.text, filename: p.filename ?? null, page: p.page ?? null }));
  const chapter = { title, content, key_concepts: keyConcepts, sources };
  // Choices come from the chapter and the passages it was written from: the same document, more of its terms.
  const [own, ...read] = materialsOf(chapter, 0);
  // A question whose wrong statements put a label or a heading in a subject's place loses them, or is
  // left out (subject-role.ts): twice the questions are drawn, in the same order, so the next takes its place.
  const text = [content, ...passages.map((p) => p.text)].join("\n");
  const quiz = quizOf(own!, poolOf([own!, ...read]), 2 * QUIZ_SIZE, read)
    .flatMap((q) => withLikeSwaps(q, text) ?? [])
    .slice(0, QUIZ_SIZE);
  const blanks = () => quiz.filter((q) => promptKind(q.prompt) === "blank");
  while (blanks().length > Math.floor(quiz.length * MAX_BLANK_SHARE))
    quiz.splice(quiz.lastIndexOf(blanks().at(-1)!), 1);
  return quiz;
}
