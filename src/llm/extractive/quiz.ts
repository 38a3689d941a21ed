/** A chapter's quiz, asked about what the learner reads: the chapter's own content, cited to its passages. */
import type { McqQuestion } from "../schemas.ts";
import type { Passage } from "../types.ts";
import { chapterMaterial } from "./material.ts";
import { poolOf, quizOf } from "./questions.ts";

export function quizFor(title: string, content: string, keyConcepts: string[], passages: Passage[]): McqQuestion[] {
  const sources = passages.map((p) => ({ text: p.text, filename: p.filename ?? null, page: p.page ?? null }));
  const m = chapterMaterial({ title, content, key_concepts: keyConcepts, sources }, 0);
  return quizOf(m, poolOf([m]));
}
