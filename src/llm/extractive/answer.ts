/** Extractive question answering: the passage sentences that best match the question, cited by number. */
import type { Answer } from "../schemas.ts";
import type { Passage } from "../types.ts";
import { cosine } from "./rank.ts";
import { contentStems, sentencesOf } from "./text.ts";

export const NOT_ANSWERED = "The provided sources do not answer this question.";
// Below this share of the question's content words, a sentence is not about the question.
const MIN_COVERAGE = 0.5;
const MAX_SENTENCES = 3;

export function extractiveAnswer(input: { question: string; passages: Passage[] }): Answer {
  const q = new Set(contentStems(input.question));
  const sentences = sentencesOf(input.passages);
  const scored = sentences
    .map((s) => {
      const set = new Set(s.stems);
      const shared = [...q].filter((t) => set.has(t)).length;
      return { s, coverage: q.size ? shared / q.size : 0, score: cosine(set, q) };
    })
    .filter((x) => x.coverage >= MIN_COVERAGE)
    .sort((a, b) => b.coverage - a.coverage || b.score - a.score || a.s.index - b.s.index);
  const best = scored.slice(0, MAX_SENTENCES).sort((a, b) => a.s.index - b.s.index);
  if (best.length === 0) return { answer: NOT_ANSWERED, citations: [], answered: false };
  const number = new Map(input.passages.map((p, i) => [p.id, i + 1]));
  const answer = best.map((x) => `${x.s.text} [${number.get(x.s.passageId)}]`).join(" ");
  const citations = [...new Set(best.map((x) => x.s.passageId))];
  return { answer, citations, answered: true };
}
