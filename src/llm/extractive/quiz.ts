/** A chapter's quiz, asked about what the learner reads: the chapter's own content, cited to its passages. */
import { type McqQuestion, QUIZ_SIZE } from "../schemas.ts";
import type { Passage } from "../types.ts";
import { materialsOf } from "./material.ts";
import { poolOf, quizOf } from "./questions.ts";
import { withLikeSwaps } from "./subject-role.ts";

export function quizFor(title: string, content: string, keyConcepts: string[], passages: Passage[]): McqQuestion[] {
  const sources = passages.map((p) => ({ text: p.text, filename: p.filename ?? null, page: p.page ?? null }));
  const chapter = { title, content, key_concepts: keyConcepts, sources };
  // Choices come from the chapter and the passages it was written from: the same document, more of its terms.
  const [own, ...read] = materialsOf(chapter, 0);
  // A wrong statement with a label or a heading for its subject is dropped (subject-role.ts), from the same text the choices come from.
  const text = [content, ...passages.map((p) => p.text)].join("\n");
  return quizOf(own!, poolOf([own!, ...read]), QUIZ_SIZE, read).flatMap((q) => withLikeSwaps(q, text) ?? []);
}
