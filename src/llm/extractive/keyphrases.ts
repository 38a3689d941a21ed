/**
 * Statistical key-phrase extraction: noun-phrase candidates from compromise's part-of-speech
 * tagger (adjectives followed by nouns, never across punctuation), scored by frequency with a bonus
 * for multi-word terms, variants merged by stem. Plain RAKE picks verbs and one-off long runs
 * ("publication provides"); restricting candidates to noun phrases fixes that.
 */
import nlp from "compromise";
import { isStopword, plainText, stem } from "./text.ts";

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
  "example", "examples", "chapter", "chapters", "figure", "figures", "section", "sections", "page", "pages", "image",
  "images", "retrieved", "isbn", "doi", "et", "al", "fig", "copyright", "note", "notes", "part",
  "number", "lot", "people", "time", "year", "years", "today", "day", "days", "case", "cases", "type", "types",
]);

function isNounTerm(tags: Set<string>): boolean {
  return tags.has("Noun") && !tags.has("Pronoun") && !tags.has("Possessive") && !tags.has("Value") && !tags.has("Date");
}

const acceptableWord = (w: string) =>
  w.length > 1 && /\p{L}/u.test(w) && !isStopword(w) && !FURNITURE.has(w.toLowerCase()) && !/^\p{L}?\d/u.test(w);

/** Noun-phrase runs of one piece of text (a sentence or a few). */
function runsOf(text: string): string[][] {
  const out: string[][] = [];
  const sentences = nlp(plainText(text)).json() as { terms: Term[] }[];
  for (const s of sentences) {
    let run: string[] = [];
    let nouns = 0;
    // Adjectives are only taken before the first noun, so a run with a noun is a noun phrase.
    const flush = () => {
      if (nouns > 0) out.push(run.slice(-MAX_WORDS));
      run = [];
      nouns = 0;
    };
    for (const t of s.terms) {
      const tags = new Set(t.tags);
      const word = t.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
      if (/[^\s-]/.test(t.pre)) flush();
      if (isNounTerm(tags) && acceptableWord(word)) {
        run.push(word);
        nouns++;
      } else if (tags.has("Adjective") && nouns === 0 && acceptableWord(word)) {
        run.push(word);
      } else {
        flush();
      }
      if (/[^\s-]/.test(t.post)) flush();
    }
    flush();
  }
  return out;
}

// Part-of-speech tagging runs at roughly 50 KB/s; past this much text, an even sample of the
// sentences gives the same statistics far sooner.
const MAX_TAGGED_CHARS = 20_000;

/** Evenly spaced items whose total length stays within `maxChars`. */
export function evenSample<T>(items: T[], length: (t: T) => number, maxChars = MAX_TAGGED_CHARS): T[] {
  const total = items.reduce((n, t) => n + length(t), 0);
  if (total <= maxChars) return items;
  const step = total / maxChars;
  return items.filter((_, i) => Math.floor(i / step) !== Math.floor((i - 1) / step) || i === 0);
}

/** Noun-phrase runs per text, for callers that rank several groupings of the same sentences. */
export const phraseRuns = (texts: string[]): string[][][] => texts.map(runsOf);

export function keyPhrases(text: string, limit = 20): KeyPhrase[] {
  const pieces = evenSample(text.split(/(?<=[.!?])\s+/), (s) => s.length);
  return rankRuns(phraseRuns(pieces).flat(), limit);
}

/** Ranks noun-phrase runs: frequency, a bonus per extra word, variants merged by stem. */
export function rankRuns(runs: string[][], limit = 20): KeyPhrase[] {
  const phrases = new Map<string, { forms: Map<string, number>; count: number; words: number }>();
  for (const run of runs) {
    const key = run.map(stem).join(" ");
    const entry = phrases.get(key) ?? { forms: new Map(), count: 0, words: run.length };
    const form = run.join(" ");
    entry.forms.set(form, (entry.forms.get(form) ?? 0) + 1);
    entry.count += 1;
    phrases.set(key, entry);
  }
  const ranked: KeyPhrase[] = [];
  for (const [key, e] of phrases) {
    const phrase = [...e.forms.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
    if (phrase.length < 3) continue;
    ranked.push({ phrase, key, count: e.count, score: e.count * (1 + 0.5 * (e.words - 1)) });
  }
  ranked.sort((a, b) => b.score - a.score || b.key.length - a.key.length || a.phrase.localeCompare(b.phrase));
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
