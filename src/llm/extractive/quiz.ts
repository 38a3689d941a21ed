/** A chapter's quiz, asked about what the learner reads: the chapter's own content, cited to its passages. */
import { type McqQuestion, QUIZ_SIZE } from "../schemas.ts";
import type { Passage } from "../types.ts";
import { materialsOf } from "./material.ts";
import { poolOf, quizOf } from "./questions.ts";

export function quizFor(title: string, content: string, keyConcepts: string[], passages: Passage[]): McqQuestion[] {
  const sources = passages.map((p) => ({ text: p.text, filename: p.filename ?? null, page: p.page ?? null }));
  const chapter = { title, content, key_concepts: keyConcepts, sources };
  // Choices come from the chapter and the passages it was written from: the same document, more of its terms.
  const [own, ...read] = materialsOf(chapter, 0);
  return quizOf(own!, poolOf([own!, ...read]), QUIZ_SIZE, read);
}
