/**
 * Extractive question answering: the whole sentence of the passages that best answers the
 * question, quoted and cited by passage number. A sentence qualifies when its passage, headings
 * included, holds most of the question's key terms by weight (answer-terms.ts): a question asked in
 * other words than the answering sentence's still shares them with the paragraph around it. Among
 * those, the one that holds the asked kind of answer (question-type.ts: a
 * number for "how many", a date for "when"…) and most of the key terms that set it apart from the
 * other sentences wins: a term every sentence has ("Eich" on a page about Eich) picks none of them.
 * A sentence that goes on in the next one ("…any loop. This is the only way to terminate repeat
 * loops.") is quoted with it, one that announces a list with a colon with the list, and a question
 * the text asks with the sentence that answers it. A "how many", "when" or "which version" question
 * with no qualifying sentence that gives a number, a date (an occasion, for "when is X done") or a
 * version is not answered: quoting a sentence without one would not answer it; nor is a
 * question whose names no passage uses (answer-terms.ts requirements). A sentence that, with its
 * neighbours, lacks a number the question names ("What happened in 1998?") tells of another occasion and does
 * not qualify: questions written to look answerable are often an answerable one with its year or
 * count changed (SQuAD 2.0 DEV: abstentions on unanswerable questions 25% → 40%, gold answers
 * -0.8 points). Among sentences, one that keeps the question's neighbouring terms together
 * (question-alignment.ts) is preferred to one that scatters them. A sentence whose neighbour holds
 * the rest of the question's key terms is quoted with it: the question's focus spans the two. A
 * sentence that holds a question's word only in a related word (WordNet) earns part of its weight.
 */
import type { Answer } from "../schemas.ts";
import { relationsOf } from "../wordnet.ts";
import { type AnswerPassage, type AnswerSentence, answerSentences, passagesTerms } from "./answer-sentences.ts";
import {
  codeKeyTerms,
  coverage,
  type KeyTerm,
  keyTerms,
  MIN_SUPPORT,
  meetsIn,
  NOT_ANSWERED,
  requirements,
  termStems,
} from "./answer-terms.ts";
import { companions, withCompanions } from "./cooccurrence.ts";
import { keptTogether } from "./question-alignment.ts";
import { answerFit, questionShape } from "./question-type.ts";
import { ANAPHORS, ANNOUNCED_THINGS, ANNOUNCING_COUNTS, FIGURE_WALKS } from "./question-words.ts";
import { isCaption, words } from "./text.ts";

export { NOT_ANSWERED };

// Units looked at for the kind of answer they hold (the tagger costs about 2 ms a sentence).
const CANDIDATES = 12;
const FIT_BONUS = 0.25;
// Retrieval's order breaks near-ties: the first passage is the likeliest to be about the question.
const RANK_BONUS = 0.1;
// Share of the score for a sentence's own key terms, the rest for those it is read with (its
// neighbours, its headings): 0.45, not the 0.6 it was, answers 2 more DEV questions of the SQuAD
// subset with the gold span (an encyclopedia's sentence leans on the one before it).
const OWN = 0.45;
// A sentence that keeps the question's neighbouring terms together (question-alignment.ts): 0.2
// answers 4 more DEV questions with the gold span than none.
const TOGETHER = 0.2;
// Share of the question's key-term weight a neighbour must add for the two to be quoted together:
// on SQuAD DEV, 0.2 gives 6 more answers the gold span (0.1 gives 8, at 1.5 more words an answer).
const SPANNED = 0.2;
// Share of a key term's weight a sentence earns with a word WordNet relates to it ("encounters"
// for "meet", "composer" for "composed"): SQuAD DEV, 0.3 and 0.5 give 3 more gold answers, 0.8 none.
const RELATED = 0.5;
const LONG_UNIT = 60;
const LONG_PENALTY = 0.1;
// A caption, or a sentence that walks through a figure ("Figure 1 illustrates the top-k accuracy…"),
// names the question's terms and answers with a picture the reader does not have.
const FIGURE_PENALTY = 0.3;
const ABOUT_A_FIGURE = new RegExp(String.raw`^(?:figure|fig\.|table)\s*\d+[a-z]?\s+(?:${FIGURE_WALKS})\b`, "i");
// Kinds whose answer is unmistakable in text: a sentence without one does not answer.
const STRICT = new Set(["quantity", "time", "version"]);
// A sentence that reads on from the one before it.
const ANAPHOR = new RegExp(String.raw`^(${ANAPHORS})\b`);
// A key term that is a number the question names ("in 1998", "its 3 members").
const NUMBER_TERM = /^\d/;
const ASKS = /\?["'”’)]*$/;
// A sentence that announces what follows ("…is due to two reasons.") is answered by the next ones.
const ANNOUNCES = new RegExp(String.raw`\b(${ANNOUNCING_COUNTS})\s+(${ANNOUNCED_THINGS})\b[^.]*[.:]$`, "i");
const ANNOUNCED = 2;
// A list or code longer than this after a colon is a section, not part of an answer.
const MAX_LISTED = 400;

/** One sentence, or a sentence with the one after it that refers back to it. */
interface Unit {
  sentences: AnswerSentence[];
  terms: Set<string>;
  context: Set<string>;
  passageTerms: Set<string>;
}

const notAnswered = (): Answer => ({ answer: NOT_ANSWERED, citations: [], answered: false });

/** A unit as scored for a question, before the kind of answer it holds is looked at. */
export interface ScoredUnit {
  text: string;
  score: number;
  /** Weighted share of the question's key terms its passage holds (answer-terms.ts coverage). */
  support: number;
  /** Whether it may answer: enough support, and every number the question names beside it. */
  eligible: boolean;
}

interface Scored extends ScoredUnit {
  u: Unit;
}

/**
 * Every unit of the passages scored for the question, best first; null when the passages lack what
 * the question requires (answer-terms.ts). bench/qa reads it to tell where the gold sentence ranks.
 */
export function scoredUnits(input: {
  question: string;
  passages: AnswerPassage[];
  minSupport?: number;
}): { sentences: AnswerSentence[]; ranked: Scored[] } | null {
  const minSupport = input.minSupport ?? MIN_SUPPORT;
  const terms = keyTerms(input.question);
  const req = requirements(input.question);
  if (!meetsIn(req, () => passagesTerms(input.passages))) return null;
  const sentences = answerSentences(input.passages);
  const distinctive = distinctiveWeights([...terms, ...codeKeyTerms(input.question)], sentences);
  // A question term the passage writes as a term it keeps company with elsewhere is in the passage.
  const mates = companions(
    terms.map((t) => t.term),
    sentences.map((s) => s.terms),
  );
  const widened = new Map<Set<string>, Set<string>>();
  const widen = (have: Set<string>) => widened.get(have) ?? widened.set(have, withCompanions(have, mates)).get(have)!;
  const related = relatedStems(input.question);
  const n = Math.max(1, input.passages.length);
  const asked = termStems(input.question);
  const numbers = terms.filter((t) => NUMBER_TERM.test(t.term));
  const ranked = unitsOf(sentences)
    .map((u) => {
      const text = u.sentences.map((s) => s.text).join(" ");
      const words = text.split(/\s+/).length;
      const own = coverage(distinctive, u.terms, { stems: related, share: RELATED });
      const read = coverage(distinctive, u.context);
      // The unit's text as termStems reads it: its sentences' stems in a row (no stem spans two).
      const stems = u.sentences.flatMap((s) => s.stems);
      const rank = RANK_BONUS * (1 - u.sentences[0]!.passage / n);
      const support = coverage(terms, widen(u.passageTerms));
      return {
        u,
        text,
        support,
        eligible: support >= minSupport && numbers.every((t) => u.context.has(t.term)),
        score:
          OWN * own +
          (1 - OWN) * read +
          rank +
          TOGETHER * keptTogether(asked, terms, stems) -
          (words > LONG_UNIT ? LONG_PENALTY : 0) -
          (u.sentences.some((s) => isCaption(s.text) || ABOUT_A_FIGURE.test(s.text)) ? FIGURE_PENALTY : 0),
      };
    })
    .sort((a, b) => b.score - a.score);
  return { sentences, ranked };
}

/** `minSupport` other than the engine's is for drawing the abstention curve (bench/qa). */
export function extractiveAnswer(input: { question: string; passages: AnswerPassage[]; minSupport?: number }): Answer {
  const scored = scoredUnits(input);
  if (scored === null) return notAnswered();
  const { sentences } = scored;
  const shape = questionShape(input.question);
  const ranked = scored.ranked.filter((x) => x.eligible).slice(0, CANDIDATES);
  // Fit is the costly part (the tagger); a candidate that could not overtake the best fitted one
  // even with the largest fit bonus, nor any after it, is not tagged.
  const bonus = FIT_BONUS * (shape.kind === "quantity" ? 2 : 1);
  const fitted: (Scored & { fit: number })[] = [];
  for (const x of ranked) {
    if (fitted.length > 0 && x.score + bonus < fitted[0]!.score) break;
    const fit = answerFit(x.text, shape, input.question);
    if (fit === 0 && STRICT.has(shape.kind)) continue;
    fitted.push({ ...x, fit, score: x.score + FIT_BONUS * fit });
    fitted.sort((a, b) => b.score - a.score);
  }
  const keyed = keyTerms(input.question);
  for (const { u } of fitted) {
    const quoted = quotedText(spanned(u, sentences, keyed), sentences);
    if (quoted === null) continue;
    const passage = u.sentences[0]!.passage;
    return { answer: `${quoted} [${passage + 1}]`, citations: [input.passages[passage]!.id], answered: true };
  }
  return notAnswered();
}

/**
 * A sentence with the neighbour that holds the rest of the question's focus: where the key terms
 * the sentence lacks stand in the sentence before or after it ("Chopin moved to Paris in 1831." /
 * "He was 21."), the question is answered by the two together.
 */
function spanned(u: Unit, sentences: AnswerSentence[], terms: KeyTerm[]): Unit {
  if (u.sentences.length > 1) return u;
  const s = u.sentences[0]!;
  const total = terms.reduce((n, t) => n + t.weight, 0);
  const lacking = terms.filter((t) => !s.terms.has(t.term));
  const gain = (x: AnswerSentence | undefined) =>
    x ? lacking.filter((t) => x.terms.has(t.term)).reduce((n, t) => n + t.weight, 0) : 0;
  const at = (p: number) => sentences.find((x) => x.passage === s.passage && x.position === p);
  const before = at(s.position - 1);
  const next = at(s.position + 1);
  const [best, side] = gain(before) > gain(next) ? [before, -1] : [next, 1];
  if (!best || gain(best) < SPANNED * total) return u;
  return unit(side < 0 ? [best, s] : [s, best]);
}

/**
 * What is quoted for a unit: its sentences, with what the last one announces ("…two reasons.",
 * "…is available:"): the whole sentences after it or, for a colon, the list items after it. A
 * colon with nothing quotable after it (code the passages hold as a block) is no answer: the
 * reader would get the announcement without what it announces.
 */
function quotedText(u: Unit, sentences: AnswerSentence[]): string | null {
  const last = u.sentences.at(-1)!;
  const own = u.sentences.map((s) => s.text).join(" ");
  const colon = last.text.endsWith(":");
  if (!colon && !ANNOUNCES.test(last.text)) return own;
  const next = after(sentences, last, ANNOUNCED);
  if (next.length > 0 && !next.at(-1)!.text.endsWith(":")) return `${own} ${next.map((s) => s.text).join(" ")}`;
  const listed = last.following.join("; ");
  if (colon && listed && listed.length <= MAX_LISTED) return `${own} ${listed}${/[.!?`]$/.test(listed) ? "" : "."}`;
  return colon ? null : own;
}

/**
 * Key-term weights for choosing among sentences: each weight times the term's inverse sentence
 * frequency in the passages, so the terms that tell sentences apart count most. A term of the
 * document's title is in every sentence of it, whether written or not: an article about Frédéric
 * Chopin says "Chopin" or "he", so "Frédéric" in a question picks out the lead sentence, which
 * alone spells the whole name, and not the sentence that answers (SQuAD DEV: 6 more answers with
 * the gold span, 4 fewer; a section's headings as well cost sets A-F two abstentions).
 */
function distinctiveWeights(terms: KeyTerm[], sentences: AnswerSentence[]): KeyTerm[] {
  const n = sentences.length;
  return terms.map((t) => {
    const df = sentences.filter((s) => s.terms.has(t.term) || s.title.has(t.term)).length;
    return { term: t.term, weight: t.weight * Math.log((n + 1) / (df + 0.5)) };
  });
}

/**
 * For each of the question's stems, the stems of the words WordNet relates to its word: synonyms,
 * what it is a kind of, derivations (wordnet.ts). A paraphrased question still names the answer's
 * words in other forms.
 */
function relatedStems(question: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const w of words(question)) {
    const [s] = termStems(w);
    if (s) out.set(s, new Set([...(out.get(s) ?? []), ...relationsOf(w.toLowerCase()).same]));
  }
  return out;
}

/** Each sentence alone, except one that refers back to the sentence before it, which goes with it. */
function unitsOf(sentences: AnswerSentence[]): Unit[] {
  const at = new Map(sentences.map((s) => [`${s.passage}:${s.position}`, s]));
  const units: Unit[] = [];
  for (const s of sentences) {
    const next = at.get(`${s.passage}:${s.position + 1}`);
    const previous = at.get(`${s.passage}:${s.position - 1}`);
    // A question the text asks ("…how can we facilitate…?") is quoted with the sentence that answers it.
    const asks = ASKS.test(s.text) && next !== undefined;
    if (!(ANAPHOR.test(s.text) && previous) && !asks) units.push(unit([s]));
    if (next && (ANAPHOR.test(next.text) || asks)) units.push(unit([s, next]));
  }
  return units;
}

// A unit's sentences are of one passage: they share its terms' set, which `widen` then reads once
// per passage, and a one-sentence unit reads its sentence's own sets.
const unit = (sentences: AnswerSentence[]): Unit => ({
  sentences,
  terms: sentences.length === 1 ? sentences[0]!.terms : new Set(sentences.flatMap((s) => [...s.terms])),
  context: sentences.length === 1 ? sentences[0]!.context : new Set(sentences.flatMap((s) => [...s.context])),
  passageTerms: sentences[0]!.passageTerms,
});

/**
 * Up to `count` whole sentences right after `s` in its passage, in a row: what follows a formula or
 * a table row that cannot be quoted is no longer what `s` announced.
 */
function after(sentences: AnswerSentence[], s: AnswerSentence, count: number): AnswerSentence[] {
  const at = new Map(sentences.filter((x) => x.passage === s.passage).map((x) => [x.position, x]));
  const out: AnswerSentence[] = [];
  for (let p = s.position + 1; p <= s.position + count && at.has(p); p++) out.push(at.get(p)!);
  return out;
}
