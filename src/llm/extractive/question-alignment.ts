/**
 * How a sentence lines up with the question beyond sharing its words (#29): the question's key
 * terms that stand next to each other in the question ("Longmenshan fault", "theatrical trailer",
 * "her father … profession") standing close together in the sentence too. A sentence that merely
 * mentions the question's words here and there ("Harper Lee's hometown" for "What profession did
 * Harper Lee's father hold?") keeps fewer of its pairs together than the one that states the fact.
 * Distances count content words, so "the father of the writer" and "the writer's father" are alike.
 */
import type { KeyTerm } from "./answer-terms.ts";

// Content words apart at most for a pair of the question's terms to count as kept together.
const NEAR = 3;

/**
 * Weighted share of the question's neighbouring key-term pairs (in its order, each pair weighing
 * its lighter term) that the sentence holds within NEAR content words of each other, in either
 * order (a passive sentence turns the question's order round). 0 for a question of one key term.
 */
export function keptTogether(questionStems: string[], terms: KeyTerm[], sentenceStems: string[]): number {
  const weight = new Map(terms.map((t) => [t.term, t.weight]));
  const asked = questionStems.filter((s, i) => weight.has(s) && questionStems.indexOf(s) === i);
  const at = new Map<string, number[]>();
  sentenceStems.forEach((s, i) => {
    if (weight.has(s)) at.set(s, [...(at.get(s) ?? []), i]);
  });
  let total = 0;
  let kept = 0;
  for (let i = 1; i < asked.length; i++) {
    const w = Math.min(weight.get(asked[i - 1]!)!, weight.get(asked[i]!)!);
    total += w;
    const a = at.get(asked[i - 1]!) ?? [];
    const b = at.get(asked[i]!) ?? [];
    if (a.some((p) => b.some((q) => Math.abs(p - q) <= NEAR))) kept += w;
  }
  return total === 0 ? 0 : kept / total;
}
