/**
 * Whether passages say what one sentence claims, accepting paraphrase and refusing invention and
 * contradiction; the one grounding check of every model-path consumer (chapters, answers, the
 * condensing notes) and of which passages ground a chapter's paragraphs. Each content word of the claim counts as found when two neighbouring
 * sentences of one passage hold it (stemmed) or a WordNet synonym, hypernym or derivation of it,
 * rarer words weighing more (a claim is about its uncommon words): words gathered from all over a
 * passage are not what it says. The claim is refused outright when it contradicts the passage
 * sentence closest to it: one of them denying what the other asserts, a number the passages do not
 * hold, or a word whose WordNet antonym that sentence uses instead.
 */
import { splitSentences } from "../ingest/sentences.ts";
import { zipf } from "./extractive/background.ts";
import { adverbBase, baseForm } from "./extractive/base-form.ts";
import { expandContractions, isStopword, stem, words } from "./extractive/text.ts";
import { relationsOf } from "./wordnet.ts";

/**
 * Least weighted share of a claim's content words the passages must hold. Chosen on the SciFact
 * claims of the dev half (bench/llm/grounding.ts): the share whose worst rate among supported
 * claims kept, contradicted and unsupported ones refused is best.
 */
export const CLAIM_SUPPORT = 0.42;

export type Contradiction = "negation" | "number" | "antonym";

export interface Verdict {
  supported: boolean;
  /** Index of the passage (in the order given to preparePassages) holding the best span; -1 when none holds a word. */
  source: number;
  /** Weighted share of the claim's content words found in the best two neighbouring sentences, 0–1. */
  support: number;
  contradiction: Contradiction | null;
}

interface Token {
  word: string;
  stem: string;
  weight: number;
  /** Its stem and the stems of its WordNet relations meaning the same. */
  alike: string[];
}

interface PreparedSentence {
  stems: Set<string>;
  /** Stems of the words a negation governs: from the negator to the end of its clause. */
  negated: Set<string>;
}

/** Spans of the passages and, for each stem, the spans holding it, so a claim is scored against all at once. */
interface Spans {
  count: number;
  holding: Map<string, number[]>;
}

export interface PreparedPassages {
  sentences: PreparedSentence[];
  /** Sentences, as spans. */
  bySentence: Spans;
  /** Each two neighbouring sentences of one passage: what one restated or fused sentence draws on. */
  byWindow: Spans;
  /** For each window, the index of the passage it is in. */
  windowPassage: number[];
  numbers: Set<string>;
}

// Closed-class words that negate what they govern ("can't" is written out first).
export const NEGATORS = new Set([
  "not",
  "no",
  "never",
  "none",
  "nor",
  "neither",
  "without",
  "cannot",
  "nothing",
  "nobody",
]);
const NUMBER = /\d+(?:[.,]\d+)*/g;

const lowerWords = (text: string) => words(expandContractions(text)).map((w) => w.toLowerCase());
const baseOf = (w: string) => adverbBase(baseForm(w));
const isContent = (w: string) => w.length > 1 && !isStopword(w) && !/^[\d.,]+$/.test(w);
const numbersOf = (text: string) => new Set((text.match(NUMBER) ?? []).map((n) => n.replace(/,/g, "")));
// Where a negation's reach ends: the clause's punctuation or a word joining another clause.
const CLAUSE_END = new Set(["but", "whereas", "while", "although", "though", "which", "however", "yet"]);

/** The stems a negation governs in `text`: each negator's words up to the end of its clause. */
function negatedStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const clause of expandContractions(text)
    .toLowerCase()
    .split(/[,;:()]|\s-\s/)) {
    let inScope = false;
    for (const w of words(clause)) {
      if (NEGATORS.has(w)) inScope = true;
      else if (CLAUSE_END.has(w)) inScope = false;
      else if (inScope && isContent(w)) out.add(stem(baseOf(w)));
    }
  }
  return out;
}
// Zipf 0 (never said aloud: a domain term) weighs 7, "the" (7.5) weighs 1.
const weightOf = (w: string) => 7 - Math.min(6, zipf(w));

function tokens(text: string): Token[] {
  return lowerWords(text)
    .filter(isContent)
    .map((w) => {
      const base = baseOf(w);
      const own = stem(base);
      return { word: base, stem: own, weight: weightOf(w), alike: [own, ...relationsOf(base).same] };
    });
}

function spans(stemSets: Set<string>[]): Spans {
  const holding = new Map<string, number[]>();
  stemSets.forEach((stems, i) => {
    for (const s of stems) {
      const list = holding.get(s);
      if (list) list.push(i);
      else holding.set(s, [i]);
    }
  });
  return { count: stemSets.length, holding };
}

export function preparePassages(texts: string[]): PreparedPassages {
  const prepare = (sentence: string): PreparedSentence => ({
    stems: new Set(
      lowerWords(sentence)
        .filter(isContent)
        .map((w) => stem(baseOf(w))),
    ),
    negated: negatedStems(sentence),
  });
  const perText = texts.map((t) => splitSentences(t).map(prepare));
  const windowsOf = (ss: PreparedSentence[]) =>
    ss.length < 2 ? ss.map((x) => x.stems) : ss.slice(1).map((x, i) => new Set([...ss[i]!.stems, ...x.stems]));
  const perWindow = perText.map(windowsOf);
  const windows = perWindow.flat();
  const sentences = perText.flat();
  return {
    sentences,
    bySentence: spans(sentences.map((x) => x.stems)),
    byWindow: spans(windows),
    windowPassage: perWindow.flatMap((ws, i) => ws.map(() => i)),
    numbers: new Set(texts.flatMap((t) => [...numbersOf(t)])),
  };
}

const found = (t: Token, stems: Set<string>) => t.alike.some((s) => stems.has(s));

/** The span holding the largest weighted share of `claim`'s tokens, and that share. */
function best(claim: Token[], among: Spans): { span: number; share: number } {
  const total = claim.reduce((n, t) => n + t.weight, 0);
  const scores = new Float64Array(among.count);
  for (const t of claim) {
    const holding = new Set(t.alike.flatMap((s) => among.holding.get(s) ?? []));
    for (const i of holding) scores[i]! += t.weight;
  }
  let span = -1;
  let top = 0;
  scores.forEach((v, i) => {
    if (v > top) [span, top] = [i, v];
  });
  return { span, share: total === 0 ? 0 : top / total };
}

function contradiction(claim: string, ts: Token[], p: PreparedPassages): Contradiction | null {
  for (const n of numbersOf(claim)) if (!holdsNumber(p.numbers, n)) return "number";
  // The sentence closest to the claim is the one it restates, or denies.
  const closest = p.sentences[best(ts, p.bySentence).span];
  if (!closest) return null;
  // One side denies what the other asserts; both denying something they share is agreement.
  const denied = negatedStems(claim);
  if (![...denied].some((s) => closest.negated.has(s))) {
    const affirmedInClaim = new Set(ts.map((t) => t.stem).filter((s) => !denied.has(s)));
    if (asserts(closest.stems, denied) || asserts(affirmedInClaim, closest.negated)) return "negation";
  }
  for (const t of ts) {
    if (found(t, closest.stems)) continue;
    if ([...relationsOf(t.word).opposite].some((s) => closest.stems.has(s))) return "antonym";
  }
  return null;
}

/** Whether `numbers` hold `n`, or a number that rounds to it at its precision ("76" for 76.3). */
function holdsNumber(numbers: Set<string>, n: string): boolean {
  if (numbers.has(n)) return true;
  const decimals = n.split(".")[1]?.length ?? 0;
  return [...numbers].some((m) => Number(m).toFixed(decimals) === n);
}

/** Whether a text whose stems are `stems` asserts one of `denied`. */
const asserts = (stems: Set<string>, denied: Set<string>) => [...denied].some((s) => stems.has(s));

/** Whether `passages` support the one sentence `claim`. */
export function claimSupport(claim: string, passages: PreparedPassages, threshold = CLAIM_SUPPORT): Verdict {
  const ts = tokens(claim);
  const { span, share: support } = best(ts, passages.byWindow);
  const contradicts = contradiction(claim, ts, passages);
  return {
    supported: contradicts === null && support >= threshold,
    source: span < 0 ? -1 : passages.windowPassage[span]!,
    support,
    contradiction: contradicts,
  };
}

/** A paragraph without list markers and emphasis marks: what its sentences say, as plain text. */
export const plainOf = (paragraph: string) => paragraph.replace(/^\s*([-*+]|\d+\.)\s+/gm, "").replace(/[*_`]/g, "");

/** The sentences of `text` (plain, see plainOf) holding a content word. */
export const claimsOf = (text: string): string[] =>
  splitSentences(plainOf(text))
    .map((s) => s.trim())
    .filter((s) => tokens(s).length > 0);

/** The sentences of `text` that `passages` do not support (see claimSupport). */
export const unsupportedSentences = (text: string, passages: PreparedPassages): string[] =>
  claimsOf(text).filter((s) => !claimSupport(s, passages).supported);
