/**
 * The built-in short-answer grader: how much of each rubric point the answer covers. A point's
 * key terms are weighted by rarity in everyday English (the question answerer's key terms: rare
 * domain words count most, framing words not at all) and compared by stem ("diffuses" meets
 * "diffusion"); its phrases (neighbouring key terms, "concentration gradient") found together in
 * the answer count as further evidence. Synonyms that share no stem are not recognised: a model
 * grader is for those.
 */
import { type KeyTerm, keyTerms, termStems, termsOf } from "../llm/extractive/answer-terms.ts";
import { stem, words } from "../llm/extractive/text.ts";
import type { RubricMark } from "../llm/schemas.ts";

export interface PointMark {
  point: string;
  met: RubricMark;
  comment: string;
}

export interface RubricMarking {
  points: PointMark[];
  feedback: string;
}

/** Weighted coverage at which a point counts as met, and as partly met. */
const MET_COVERAGE = 0.6;
const PARTLY_COVERAGE = 0.3;

/** The words of a phrase may stand this many content words apart in the answer ("membrane of the cell"). */
const PHRASE_WINDOW = 2;

const NEGATION = /\b(?:no|not|never|without|cannot|none|neither|nor)\b|n't\b/i;

interface Phrase {
  a: string;
  b: string;
  weight: number;
}

/** Neighbouring key terms of the point, in its order, each weighing the mean of its two words. */
function phrasesOf(point: string, weights: Map<string, number>): Phrase[] {
  const seq = termStems(point).filter((s) => weights.has(s));
  const out = new Map<string, Phrase>();
  for (let i = 0; i + 1 < seq.length; i++) {
    const [a, b] = [seq[i]!, seq[i + 1]!];
    if (a !== b) out.set(`${a} ${b}`, { a, b, weight: (weights.get(a)! + weights.get(b)!) / 2 });
  }
  return [...out.values()];
}

function phraseIn(answer: string[], { a, b }: Phrase): boolean {
  for (let i = 0; i < answer.length; i++) {
    if (answer[i] !== a && answer[i] !== b) continue;
    const other = answer[i] === a ? b : a;
    for (let j = i + 1; j <= i + PHRASE_WINDOW && j < answer.length; j++) if (answer[j] === other) return true;
  }
  return false;
}

const weightOf = (items: { weight: number }[]) => items.reduce((s, t) => s + t.weight, 0);

interface GivenAnswer {
  stems: string[];
  terms: Set<string>;
  /** The answer's clauses, each with its terms and whether it is negative. */
  clauses: { terms: Set<string>; negative: boolean }[];
}

// Clauses: a negation in one ("…and the cell spends no energy") says nothing about another.
const CLAUSE = /[.;:!?]+|,\s*(?:and|but|while|whereas|so)\b|\b(?:but|whereas|although|though)\b/i;

function given(answer: string): GivenAnswer {
  const clauses = answer.split(CLAUSE).map((c) => ({ terms: termsOf(c), negative: NEGATION.test(c) }));
  return { stems: termStems(answer), terms: termsOf(answer), clauses };
}

/** Whether the answer says the point negatively: the clause holding most of the point's found terms (by weight) is negative. */
function negatedAbout(answer: GivenAnswer, found: KeyTerm[]): boolean {
  const held = (c: GivenAnswer["clauses"][number]) => weightOf(found.filter((t) => c.terms.has(t.term)));
  const best = answer.clauses.reduce<GivenAnswer["clauses"][number] | null>(
    (b, c) => (held(c) > (b ? held(b) : 0) ? c : b),
    null,
  );
  return best?.negative ?? false;
}

/**
 * One point's mark. Terms the question itself names are left out (repeating the question earns
 * nothing), unless the point has no others. Words found apart still count as words; a phrase found
 * whole only adds. A point that says "no", "not", "never"… is at most partly met by an answer
 * that says none of them, and the other way round.
 */
function markPoint(point: string, answer: GivenAnswer, asked: Set<string>): PointMark {
  const all = keyTerms(point);
  const own = all.filter((t) => !asked.has(t.term));
  const terms = own.length > 0 ? own : all;
  if (terms.length === 0)
    return { point, met: answer.stems.length > 0 ? "yes" : "no", comment: "The point has no key terms to check." };
  const found = terms.filter((t) => answer.terms.has(t.term));
  const missing = terms.filter((t) => !answer.terms.has(t.term));
  const phrases = phrasesOf(point, new Map(terms.map((t) => [t.term, t.weight])));
  const together = phrases.filter((p) => phraseIn(answer.stems, p));
  const byWords = weightOf(found) / weightOf(terms);
  const withPhrases = (weightOf(found) + weightOf(together)) / (weightOf(terms) + weightOf(phrases));
  const coverage = Math.max(byWords, withPhrases);
  let met: RubricMark = coverage >= MET_COVERAGE ? "yes" : coverage >= PARTLY_COVERAGE ? "partly" : "no";
  const contradicts = met !== "no" && NEGATION.test(point) !== negatedAbout(answer, found);
  if (contradicts) met = "partly";
  // Comments name the point's own words, not their stems.
  const written = new Map(
    words(point)
      .map((w) => [stem(w), w.toLowerCase()] as const)
      .reverse(),
  );
  const names = (ts: KeyTerm[]) => ts.map((t) => written.get(t.term) ?? t.term).join(", ");
  const comment = contradicts
    ? `The key terms are there (${names(found)}), but the point ${NEGATION.test(point) ? "is a negative statement and the answer is not" : "is not negative and the answer is"}.`
    : met === "yes"
      ? `Covered: ${names(found)}.`
      : found.length === 0
        ? `Not covered; the point is about: ${names(missing)}.`
        : `Partly covered (${names(found)}); missing: ${names(missing)}.`;
  return { point, met, comment };
}

/** Every rubric point of a question marked against one answer, with feedback naming what is missing. */
export function markAgainstRubric(question: string, rubric: string[], answer: string): RubricMarking {
  const asked = termsOf(question);
  const said = given(answer);
  const points = rubric.map((p) => markPoint(p, said, asked));
  const met = points.filter((p) => p.met === "yes").length;
  const open = points.filter((p) => p.met !== "yes").map((p) => p.point);
  const feedback =
    open.length === 0
      ? `All ${points.length} rubric points are covered.`
      : `${met} of ${points.length} rubric points covered. Still to cover: ${open.join("; ")}`;
  return { points, feedback };
}
