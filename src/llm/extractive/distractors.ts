/**
 * Wrong choices of the same kind as the right one: other domain terms of the course for a term
 * (names for a name, plurals for a plural, people for people), figures of the same form and magnitude for a figure,
 * other definitions, and what the course's terms act on, of its form for a definition (noun phrases
 * for a noun phrase). A distractor never shares a stem with the answer (it could
 * be right too) or with another distractor (it would give the pair away), nor is one's short form.
 */

import { choiceKind, type ItemSource, sameThing } from "../artefacts/item-checks.ts";
import { nlp } from "../compromise.ts";
import { overlaps } from "./keyphrases.ts";
import { likeKinds } from "./like-kinds.ts";
import { nounPhrase } from "./phrase-forms.ts";
import { opensWithTag, type TaggedTerm, taggedSentences, taggedTexts } from "./tagging.ts";
import { containsPhrase, escapeRegExp, hash, isStopword, wordCount } from "./text.ts";

const WRONG = 3;

/** Picks `n` items from `pool` in an order fixed by `seed`, preferring those `closeness` ranks first. */
function pick<T>(
  pool: T[],
  n: number,
  seed: number,
  closeness: (t: T) => number,
  clash: (a: T, b: T) => boolean,
  fits: (t: T) => boolean = () => true,
): T[] {
  const ordered = pool
    .map((t, i) => ({ t, d: closeness(t) + (hash(`${seed}:${i}`) % 1000) / 1000 }))
    .sort((a, b) => a.d - b.d);
  const out: T[] = [];
  for (const { t } of ordered) {
    if (out.length >= n) break;
    if (!out.some((o) => clash(o, t)) && fits(t)) out.push(t);
  }
  return out;
}

export const isName = (s: string) => /^\p{Lu}/u.test(s) || /\p{Lu}{2}/u.test(s);
/** A common noun phrase in the plural: a blank read as "k _____ of which" takes only a plural. */
const isPlural = (s: string) => !isName(s) && /\p{Ll}{2}s$/u.test(s) && !/(ss|us|is)$/.test(s);

/**
 * Other domain terms of the answer's kind (a name for a name, a plural for a plural, people for
 * people and code for code in `source`) and of similar length, none found in `context` (the
 * question's own text), each passing `fits` when given.
 */
export function termDistractors(
  answer: string,
  terms: string[],
  context: string,
  seed: number,
  source?: ItemSource,
  fits?: (term: string) => boolean,
): string[] {
  const words = wordCount(answer);
  // Every term's opening is read below: tagged in one pass, not one call each.
  taggedTexts([answer, ...terms]);
  const article = opensWithTag(answer, "Determiner");
  // A short form of the answer ("Wasm" beside "WebAssembly") would be right too; a phrase opening on
  // an article ("The ASCII" beside "Latin script") is a sentence's words, not a term like the answer;
  // a thing of another kind ("patents" beside "users") is not a wrong answer but a giveaway (like-kinds.ts).
  const pool = [...new Set(terms)].filter(
    (t) =>
      t.toLowerCase() !== answer.toLowerCase() &&
      opensWithTag(t, "Determiner") === article &&
      likeKinds(t, answer, source) &&
      !overlaps(t, answer) &&
      !sameThing(t, answer) &&
      !containsPhrase(context, t),
  );
  return pick(
    pool,
    WRONG,
    seed,
    (t) =>
      Math.abs(wordCount(t) - words) +
      (isName(t) === isName(answer) ? 0 : 1.5) +
      (isName(answer) || isPlural(t) === isPlural(answer) ? 0 : 1.5),
    (a, b) => overlaps(a, b) || sameThing(a, b),
    fits,
  );
}

/** A term standing as a whole word: not the half of a hyphenated one ("batch" in "in-batch"). */
export const wholeTerm = (span: string, flags: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}]|[\\p{L}\\p{N}]-)${escapeRegExp(span)}(?![\\p{L}\\p{N}]|-[\\p{L}\\p{N}])`, flags);

/** "an" before a vowel sound, "a" before a consonant's ("a unit", "an hour" aside, read by the first letter). */
const articleFor = (word: string) => (/^(?:[aeio]|u(?!n[aeiou]|s[eu]|ni)|hou|hon)/i.test(word) ? "an" : "a");

const role = (tags: string[]) =>
  tags.includes("Noun") ? "noun" : tags.includes("Verb") ? "verb" : tags.includes("Adjective") ? "adjective" : "other";
const number = (tags: string[]) => (tags.includes("Plural") ? "plural" : "singular");
const bare = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}-]+/gu, "");

/** Where `phrase` stands in `sentence` as the tagger reads it: its tagged words and the ones before it. */
function placeIn(sentence: string, phrase: string): { terms: TaggedTerm[]; start: number; end: number } | null {
  const want = phrase.split(/\s+/).map(bare);
  const terms = taggedSentences(sentence).flatMap((s) => s.terms);
  for (let i = 0; i + want.length <= terms.length; i++)
    if (want.every((w, k) => bare(terms[i + k]!.text) === w)) return { terms, start: i, end: i + want.length - 1 };
  return null;
}

const INDEFINITE = new Set(["a", "an", "one", "each", "every", "another"]);

/**
 * How the sentence counts the noun at `start`, read past its adjectives: "counted" after "a",
 * "one", "each"…, "bare" with no determiner at all (a mass noun: "drags compost"), else "either".
 */
function counting(terms: TaggedTerm[], start: number): "counted" | "bare" | "either" {
  let k = start - 1;
  while (k >= 0 && terms[k]!.tags.includes("Adjective")) k--;
  const before = terms[k];
  if (before && INDEFINITE.has(bare(before.text))) return "counted";
  if (before && ["Determiner", "Possessive", "Value", "Pronoun"].some((t) => before.tags.includes(t))) return "either";
  return "bare";
}

// The word after a noun ends its phrase when it is a function word or reads as a verb ("a gardener grows").
const phraseEnds = (next: string) => isStopword(next) || /\p{Ll}(?:s|ed)$/u.test(next);

const countableMemo = new WeakMap<ItemSource, Map<string, boolean>>();
/**
 * Whether the document counts `head` (a noun): it writes it in the plural, or after "a", "an",
 * "one", "each" or "every" (a word or two between) where its noun phrase ends ("a compost heap"
 * counts heaps, not compost). "Work", "software", "information" it does not.
 */
function countable(head: string, source: ItemSource): boolean {
  const memo = countableMemo.get(source) ?? new Map<string, boolean>();
  countableMemo.set(source, memo);
  const key = head.toLowerCase();
  const known = memo.get(key);
  if (known !== undefined) return known;
  const plural = (nlp(key).nouns().toPlural().text() as string).toLowerCase();
  const after = new RegExp(
    `(?<![\\p{L}])(?:a|an|one|each|every|another)\\s+(?:[\\p{L}-]+\\s+){0,2}${escapeRegExp(key)}(?:\\s*[^\\p{L}\\s]|\\s+(\\p{L}+))`,
    "gu",
  );
  const counted =
    !nlp(key).has("#Uncountable") &&
    ((plural !== key && source.has(plural)) ||
      [...source.text.matchAll(after)].some((m) => m[1] === undefined || phraseEnds(m[1])));
  memo.set(key, counted);
  return counted;
}

/**
 * `sentence` with `span` swapped for `term`, or null when the swap is not grammatical there: the
 * tagger must read the term's head in the new sentence in the span's role (noun, verb, adjective)
 * and number; where the sentence counts the span ("a raised bed") the term must be one the document
 * counts, where it writes it bare ("drags compost") one it never counts; an article before it
 * follows the term's first sound ("a compost heap", never "an compost heap"). A name takes a
 * name's place only, and one of its form (choiceKind).
 */
export function swapped(sentence: string, span: string, term: string, source: ItemSource): string | null {
  const was = placeIn(sentence, span);
  if (!was) return null;
  const head = was.terms[was.end]!;
  // A common term opening the sentence has a capital that does not make it a name ("Dictionaries have…").
  const opening = was.start === 0 && !head.tags.includes("ProperNoun");
  if ((opening ? isName(span.charAt(0).toLowerCase() + span.slice(1)) : isName(span)) !== isName(term)) return null;
  // A name for a name of its form: an abbreviation for an abbreviation ("RMF", never "Risk"), a
  // product's name for another ("Fortran", never the everyday "External").
  if (isName(term) && !opening && choiceKind(span) !== choiceKind(term)) return null;
  if (!isName(term) && !head.tags.includes("Plural")) {
    const how = counting(was.terms, was.start);
    const counts = countable(term.split(/\s+/).at(-1)!, source);
    if ((how === "counted" && !counts) || (how === "bare" && counts)) return null;
  }
  const article = new RegExp(
    `(?<![\\p{L}])([Aa]n?)(\\s+)(${escapeRegExp(span)})(?![\\p{L}\\p{N}]|-[\\p{L}\\p{N}])`,
    "u",
  ).exec(sentence);
  let out: string;
  if (article) {
    const a = articleFor(term);
    const written = article[1]!.startsWith("A") ? a.charAt(0).toUpperCase() + a.slice(1) : a;
    out = `${sentence.slice(0, article.index)}${written}${article[2]}${term}${sentence.slice(article.index + article[0].length)}`;
  } else {
    // A term opening the sentence takes its capital ("Dictionaries have…" → "Variables have…").
    out = sentence.replace(wholeTerm(span, "u"), opening ? term.charAt(0).toUpperCase() + term.slice(1) : term);
  }
  const now = placeIn(out, term);
  if (!now) return null;
  const tags = now.terms[now.end]!.tags;
  return role(head.tags) === role(tags) && number(head.tags) === number(tags) ? out : null;
}

/**
 * Other definitions of the answer's form (noun phrases for a noun phrase), closest in length first,
 * none mentioning the term asked about.
 */
export function definitionDistractors(answer: string, term: string, definitions: string[], seed: number): string[] {
  const length = wordCount(answer);
  const form = nounPhrase(answer);
  const pool = [...new Set(definitions)].filter(
    (d) => d !== answer && !containsPhrase(d, term) && nounPhrase(d) === form,
  );
  return pick(
    pool,
    WRONG,
    seed,
    (d) => Math.abs(wordCount(d) - length) / Math.max(4, length),
    (a, b) => a === b,
  );
}

/**
 * Figures of the same form and magnitude as `value` ("23%" → other percentages, "1998" → nearby
 * years, "2.5x" → other factors with one decimal, "150" → other three-digit counts), never one
 * that appears in `context`.
 */
export function numberDistractors(value: string, form: string, context: string, seed: number): string[] {
  const m = /^([\d,.]+)(.*)$/.exec(value);
  if (!m) return [];
  const digits = m[1]!;
  const unit = m[2]!;
  const n = Number(digits.replace(/,/g, ""));
  const decimals = digits.includes(".") ? digits.split(".")[1]!.length : 0;
  const grouped = digits.includes(",");
  const format = (x: number) => {
    const fixed = x.toFixed(decimals);
    return `${grouped ? Number(fixed).toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals }) : fixed}${unit}`;
  };
  let candidates: number[];
  if (form === "year") candidates = [-7, -4, -2, 2, 3, 5, 8].map((d) => n + d);
  else if (form === "percent") candidates = [0.4, 0.6, 0.75, 1.3, 1.6, 2].map((f) => Math.min(99, Math.max(1, n * f)));
  else candidates = [0.25, 0.5, 0.75, 1.5, 2, 3, 4].map((f) => n * f);
  const step = 10 ** -decimals;
  const wrong = [...new Set(candidates.map((x) => Math.max(step, Math.round(x / step) * step)))]
    .filter((x) => Math.abs(x - n) >= step / 2 && (form !== "integer" || Number.isInteger(x)))
    .map(format)
    .filter((s) => s !== value && !context.includes(s.replace(unit, "").trim()));
  return pick(
    wrong,
    WRONG,
    seed,
    () => 0,
    (a, b) => a === b,
  );
}

/** The answer placed among the distractors at a position fixed by `seed`: shuffled, yet the same every time. */
export function shuffled(answer: string, wrong: string[], seed: number): { choices: string[]; answer: number } {
  const at = seed % (wrong.length + 1);
  return { choices: [...wrong.slice(0, at), answer, ...wrong.slice(at)], answer: at };
}
