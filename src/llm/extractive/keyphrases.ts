/**
 * Domain-term extraction: noun-phrase candidates from compromise's part-of-speech tagger
 * (adjectives followed by nouns, never across punctuation), scored by frequency with a bonus for
 * multi-word terms and weighted by how rare their words are in everyday English (background.ts),
 * variants merged by stem. Plain RAKE picks verbs and one-off long runs ("publication provides");
 * restricting candidates to noun phrases fixes that, and the background list drops generic words.
 */
import { lexicon } from "../compromise.ts";
import { zipf } from "./background.ts";
import { type TaggedTerm, taggedTexts } from "./tagging.ts";
import { escapeRegExp, hash, isStopword, plainText, stem } from "./text.ts";

export interface KeyPhrase {
  /** Most frequent surface form, as written in the text. */
  phrase: string;
  /** Stem key the variants share. */
  key: string;
  score: number;
  count: number;
}

interface Term {
  text: string;
  pre: string;
  post: string;
  tags: string[];
}

const MAX_WORDS = 4;
// Document furniture that tags as nouns but never names a concept.
const FURNITURE = new Set([
  "example",
  "examples",
  "chapter",
  "chapters",
  "figure",
  "figures",
  "section",
  "sections",
  "page",
  "pages",
  "image",
  "images",
  "retrieved",
  "isbn",
  "doi",
  "et",
  "al",
  "fig",
  "copyright",
  "note",
  "notes",
  "part",
  "number",
  "lot",
  "people",
  "time",
  "year",
  "years",
  "today",
  "day",
  "days",
  "case",
  "cases",
  "type",
  "types",
]);

// People and places are cited authors and affiliations far more often than concepts to learn.
const NOT_CONCEPTS = ["Pronoun", "Possessive", "Value", "Date", "Person", "Place", "Verb"];

function isNounTerm(tags: Set<string>): boolean {
  return tags.has("Noun") && !NOT_CONCEPTS.some((t) => tags.has(t));
}

// Words only: code identifiers and markup ("js_Array_set", 'type="n') are not terms to teach.
const acceptableWord = (w: string) =>
  w.length > 1 &&
  /^[\p{L}\p{N}][\p{L}\p{N}'’-]*$/u.test(w) &&
  /\p{L}/u.test(w) &&
  !isStopword(w) &&
  !FURNITURE.has(w.toLowerCase()) &&
  !/^\p{L}?\d/u.test(w);

const VERB_FORMS = new Set(["Infinitive", "PresentTense", "PastTense", "Imperative"]);
const isPlural = (t: Term) => t.tags.includes("Plural") && /\p{Ll}s$/u.test(t.text);
const isCapitalisedVerb = (t: Term) =>
  /^\p{Lu}\p{Ll}+$/u.test(t.text) && VERB_FORMS.has(lexicon()[t.text.toLowerCase()] ?? "");
const noGap = (t: Term) => !/[^\s]/.test(t.post);

/**
 * Words the tagger read as nouns that are the clause's verb: a plural or a capitalised verb right
 * before an article or a possessive pronoun ("the interpreter executes the bytecode", "and Promote
 * the Manifesto"), or a plural before "to" and a verb in a clause with no verb before it ("The
 * Mozilla Foundation pledges to support…"). A noun phrase after a preposition is left alone ("in both
 * cases the…").
 */
function misreadVerbs(terms: Term[]): Set<number> {
  const out = new Set<number>();
  let verbSeen = false;
  terms.forEach((t, i) => {
    const next = terms[i + 1];
    if (t.tags.includes("Verb") && !t.tags.includes("Gerund")) verbSeen = true;
    if (!next || !noGap(t) || !t.tags.includes("Noun")) return;
    let start = i;
    while (
      start > 0 &&
      noGap(terms[start - 1]!) &&
      /Noun|Adjective|Determiner|Value/.test(terms[start - 1]!.tags.join())
    ) {
      if (terms[start - 1]!.tags.includes("Pronoun")) break;
      start--;
    }
    if (terms[start - 1]?.tags.includes("Preposition") && noGap(terms[start - 1]!)) return;
    const beforeArticle =
      next.tags.includes("Determiner") || (next.tags.includes("Possessive") && next.tags.includes("Pronoun"));
    const beforeInfinitive =
      !verbSeen && next.text.toLowerCase() === "to" && (terms[i + 2]?.tags.includes("Infinitive") ?? false);
    if ((beforeArticle && (isPlural(t) || isCapitalisedVerb(t))) || (beforeInfinitive && isPlural(t))) {
      out.add(i);
      verbSeen = true;
    }
  });
  return out;
}

interface PhraseWord {
  word: string;
  noun: boolean;
  adjective: boolean;
  /** A later part of a hyphenated word, already written in its first part. */
  joined?: boolean;
}

/**
 * Which terms may stand in a noun phrase: nouns (and adjectives before them) that are acceptable
 * words, misread verbs excepted. A hyphenated word ("in-batch", "regexp-dna") is one word, written
 * whole, taking the part of speech of its last part.
 */
function phraseWords(terms: Term[]): PhraseWord[] {
  const verbs = misreadVerbs(terms);
  const words: PhraseWord[] = terms.map((t, i) => {
    const tags = new Set(t.tags);
    const word = t.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    const ok = acceptableWord(word) && !verbs.has(i);
    return { word, noun: ok && isNounTerm(tags), adjective: ok && tags.has("Adjective") };
  });
  for (let i = 0; i < terms.length; ) {
    let end = i;
    while (end < terms.length - 1 && terms[end]!.post === "-") end++;
    if (end > i) {
      const whole = words
        .slice(i, end + 1)
        .map((w) => w.word)
        .join("-");
      const last = words[end]!;
      const ok = acceptableWord(whole) && !verbs.has(end);
      words[i] = { word: whole, noun: ok && last.noun, adjective: ok && last.adjective };
      for (let k = i + 1; k <= end; k++) words[k] = { ...words[k]!, joined: true };
    }
    i = end + 1;
  }
  return words;
}

/** Noun-phrase runs of one piece of text (a sentence or a few), from its tagged sentences. */
function runsOf(sentences: { terms: TaggedTerm[] }[]): string[][] {
  const out: string[][] = [];
  for (const s of sentences) {
    let run: string[] = [];
    let nouns = 0;
    // Adjectives only open a run, so a run with a noun is a noun phrase.
    const flush = () => {
      if (nouns > 0) out.push(run.slice(-MAX_WORDS));
      run = [];
      nouns = 0;
    };
    const words = phraseWords(s.terms);
    s.terms.forEach((t, i) => {
      const { word, noun, adjective, joined } = words[i]!;
      if (joined) return;
      if (/[^\s-]/.test(t.pre)) flush();
      if (noun) {
        run.push(word);
        nouns++;
      } else if (adjective) {
        // An adjective after a noun starts the next phrase ("the compiler efficient code"), unless
        // the noun is a hyphenated modifier ("high-quality dense retriever", "in-batch negative training").
        if (nouns > 0 && !run.at(-1)!.includes("-")) flush();
        run.push(word);
      } else {
        flush();
      }
      // A hyphenated word ends at its last part's punctuation.
      let last = i;
      while (words[last + 1]?.joined) last++;
      if (/[^\s-]/.test(s.terms[last]!.post)) flush();
    });
    flush();
  }
  return out;
}

// Part-of-speech tagging runs at roughly 50 KB/s; past this much text, a sample of the sentences
// gives the same statistics far sooner.
const MAX_TAGGED_CHARS = 20_000;

/**
 * Items whose total length stays near `maxChars`, each kept by the hash of its own text against
 * the share of the whole that fits: a text sampled at a lower rate keeps a subset of what a shorter
 * text holding the same sentences keeps, so the sentence a book's outline, a chapter's key concepts
 * and its sources' quiz material each sample is tagged once (a sample by position was a different
 * one in each). An item longer than the whole sample may leave none chosen: then the first stands in.
 */
export function textSample<T>(items: T[], text: (t: T) => string, maxChars = MAX_TAGGED_CHARS): T[] {
  const total = items.reduce((n, t) => n + text(t).length, 0);
  if (total <= maxChars) return items;
  const below = (maxChars / total) * 2 ** 32;
  const chosen = items.filter((t) => hash(text(t)) < below);
  return chosen.length > 0 ? chosen : items.slice(0, 1);
}

/** Noun-phrase runs per text, for callers that rank several groupings of the same sentences. */
export const phraseRuns = (texts: string[]): string[][][] => taggedTexts(texts.map(plainText)).map(runsOf);

const piecesOf = (text: string) => text.split(/(?<=[.!?])\s+/);

/** The pieces of `text` that keyPhrases tags: all of them, or a sample of a long text. */
export const taggedPieces = (text: string): string[] => textSample(piecesOf(text), (s) => s);

export function keyPhrases(text: string, limit = 20): KeyPhrase[] {
  const all = piecesOf(text);
  const pieces = textSample(all, (s) => s);
  if (pieces.length === all.length) return rankRuns(phraseRuns(pieces).flat(), limit);
  // The sample finds the candidates; their counts come from the whole text, where a regex is cheap.
  const candidates = rankRuns(phraseRuns(pieces).flat(), limit * 4);
  const recounted = candidates.map((p) => {
    const found = text.match(phraseRegExp(p.phrase, "giu")) ?? [];
    const count = found.length || p.count;
    const phrase = writtenMost(p.phrase, found);
    return { ...p, phrase, count, score: termScore(phrase.split(" "), count) };
  });
  return dropContained(recounted.sort(byScore)).slice(0, limit);
}

/**
 * The phrase with the letter case the whole text writes it in most, the sample's own form on a tie: a
 * sample may hold the rarer form ("cmd" of "R CMD cmd args"), and a name's case is what tells it
 * from a common word (concepts.ts).
 */
function writtenMost(phrase: string, found: string[]): string {
  const forms = new Map<string, number>();
  for (const f of found) if (f.toLowerCase() === phrase.toLowerCase()) forms.set(f, (forms.get(f) ?? 0) + 1);
  const own = forms.get(phrase) ?? 0;
  const [best, n] = [...forms].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] ?? [phrase, 0];
  return n > own ? best : phrase;
}

/** The phrase as a whole-word pattern, its last word with or without a plural ending. */
function phraseRegExp(phrase: string, flags: string): RegExp {
  const stemmed = phrase.replace(/(es|s)$/i, "");
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(stemmed)}(?:s|es)?(?![\\p{L}\\p{N}])`, flags);
}

/**
 * How much more a phrase belongs to the document than to everyday English: its rarest word counts
 * most, the others a little (so "trace trees" is specific through "trace", "other hand" is not).
 */
function specificity(words: string[]): number {
  const spec = words.map((w) => Math.min(1.2, Math.max(0, (6 - zipf(w)) / 4)));
  const own = 0.7 * Math.max(...spec) + (0.3 * spec.reduce((a, b) => a + b, 0)) / spec.length;
  // Everyday words that recur together ("trace tree", "side exit") are the domain's own vocabulary.
  return words.length > 1 ? Math.max(own, 0.6) : own;
}

/** Occurrences, a bonus per extra word, and specificity. */
const termScore = (words: string[], count: number) => count * (1 + 0.5 * (words.length - 1)) * specificity(words);
const byScore = (a: KeyPhrase, b: KeyPhrase) =>
  b.score - a.score || b.key.length - a.key.length || a.phrase.localeCompare(b.phrase);

/**
 * A generic phrase names no concept of the domain: a single word everyday English uses often
 * ("value", "side", "returns"), or a phrase made only of such words and seen once.
 */
function isGeneric(words: string[], count: number): boolean {
  const rarest = Math.min(...words.map(zipf));
  if (words.length === 1) return rarest >= SINGLE_WORD_ZIPF && !/^\p{Lu}{2,}$|\p{Ll}\p{Lu}/u.test(words[0]!);
  return rarest >= PHRASE_ZIPF || (count < 2 && rarest >= SINGLE_WORD_ZIPF);
}
// A single word must be rarer than about the 8,000 most frequent English words (acronyms and
// camel-case names excepted); a phrase needs one word rarer than about the 1,500 most frequent.
const SINGLE_WORD_ZIPF = 3.7;
const PHRASE_ZIPF = 4.9;

/**
 * Ranks noun-phrase runs as domain terms: occurrences (a run also counts for the shorter phrases
 * ending at its head noun, so "nested trace trees" counts for "trace trees"), a bonus per extra
 * word, weighted by specificity against everyday English; variants merged by stem; generic
 * phrases left out.
 */
export function rankRuns(runs: string[][], limit = 20): KeyPhrase[] {
  const phrases = new Map<string, { forms: Map<string, number>; count: number; words: number }>();
  for (const run of runs) {
    for (let start = 0; start < run.length; start++) {
      const part = run.slice(start);
      const key = part.map(stem).join(" ");
      const entry = phrases.get(key) ?? { forms: new Map(), count: 0, words: part.length };
      const form = part.join(" ");
      entry.forms.set(form, (entry.forms.get(form) ?? 0) + 1);
      entry.count += 1;
      phrases.set(key, entry);
    }
  }
  const ranked: KeyPhrase[] = [];
  for (const [key, e] of phrases) {
    const phrase = [...e.forms.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
    const words = phrase.split(" ");
    if (phrase.length < 3 || isGeneric(words, e.count)) continue;
    ranked.push({ phrase, key, count: e.count, score: termScore(words, e.count) });
  }
  ranked.sort(byScore);
  const recurring = ranked.filter((p) => p.count > 1);
  // Short inputs may repeat nothing; then single occurrences are all there is.
  const pool = recurring.length >= Math.min(limit, 5) ? recurring : ranked;
  return dropContained(pool).slice(0, limit);
}

/** Drops a phrase whose stems all sit inside a better-ranked phrase ("variables" under "global variables"). */
function dropContained(ranked: KeyPhrase[]): KeyPhrase[] {
  const kept: KeyPhrase[] = [];
  for (const p of ranked) {
    const stems = p.key.split(" ");
    if (!kept.some((k) => stems.every((s) => k.key.split(" ").includes(s)))) kept.push(p);
  }
  return kept;
}

/** True when two phrases share a stem (so one cannot serve as the other's distractor). */
export function overlaps(a: string, b: string): boolean {
  const as = new Set(a.split(/\s+/).map(stem));
  return b.split(/\s+/).some((w) => as.has(stem(w)));
}
