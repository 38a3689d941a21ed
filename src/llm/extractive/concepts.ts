/**
 * A chapter's key concepts: the terms its text defines (an abbreviation with its expansion), its
 * subheadings that are noun phrases ("Trace trees", "Type specialization"), then its domain terms
 * by rank (keyphrases.ts), without two concepts for one idea ("trace tree" and "trace trees"). A
 * ranked term that is one word must be a name (an acronym, "SpiderMonkey", a capitalised word inside
 * a sentence): a lone common noun ("passages", "functions") names nothing a learner could look up,
 * and a word the text writes as code ("Lst[[1]]", "expr_1") or as a constant ("FORCESSTACK") is not a concept.
 * A concept is what the chapter's body text teaches: a line listing people (the authors) is not
 * read for terms, and no concept is only their names ("Gagan Bansal", "Jiang").
 */

import { isNameList, nameWords } from "../../ingest/name-list.ts";
import { COMMON_ZIPF, zipf } from "./background.ts";
import { type Definition, findDefinitions } from "./definitions.ts";
import { keyPhrases, phraseRuns } from "./keyphrases.ts";
import { escapeRegExp, isStopword, type Sentence, stem } from "./text.ts";

const MAX_CONCEPTS = 8;
const HEADING_WORD_ZIPF = 3.7;
const MAX_TERM_WORDS = 4;

/** A heading's words without its numbering and a trailing "(ABC)". */
const headingText = (heading: string) =>
  heading
    .replace(/^(\d+(\.\d+)*|[A-Z]\.|[IVX]+\.)\s+/, "")
    .replace(/\s*\([\p{Lu}\d-]{2,8}s?\)$/u, "")
    .trim();

/** The headings that are themselves domain terms: one noun phrase of at most four words. Tagged in one pass. */
function headingTerms(headings: string[]): string[] {
  const texts = headings.map(headingText);
  const runs = phraseRuns(texts);
  return texts.map((text, i) => headingTerm(text, runs[i])).filter((h): h is string => h !== null);
}

/** A heading's text when it is one noun phrase (its only run of `runs`) that reads as a term, else null. */
function headingTerm(text: string, runs: string[][] | undefined): string | null {
  const whole = runs?.length === 1 ? runs[0]! : null;
  if (
    !whole ||
    whole.length > MAX_TERM_WORDS ||
    whole.join(" ").toLowerCase() !==
      text
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s'’-]/gu, "")
        .trim()
  )
    return null;
  // A one-word heading ("Scope", "Families") is a term only if everyday English rarely uses the word.
  if (whole.length === 1 && zipf(whole[0]!) >= HEADING_WORD_ZIPF) return null;
  // Nor is one made only of everyday words ("Main results", "Related work").
  if (Math.min(...whole.map(zipf)) >= COMMON_ZIPF) return null;
  return isStopword(whole.at(-1)!) ? null : text;
}

/** One concept inside the other ("glyceraldehyde" in "glyceraldehyde 3-phosphate"), or variants of one ("trace tree", "trace trees"). */
function sameIdea(a: string, b: string): boolean {
  const sa = (a.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? []).map(stem);
  const sb = (b.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? []).map(stem);
  return sa.every((s) => sb.includes(s)) || sb.every((s) => sa.includes(s));
}

// Touching code punctuation: "Lst[[1]]", "Lst$name", "length(Lst)", "expr_1", "x <- …".
const codeTouch = (word: string) => {
  const w = escapeRegExp(word);
  return new RegExp(
    `(?<![\\p{L}\\p{N}])${w}(?=[[$@_{]|\\(|\\s*<-|::|\\.\\p{L})|(?<=[$@_.]|\\p{L}\\()${w}(?![\\p{L}\\p{N}])`,
    "gu",
  );
};
const mentions = (word: string) => new RegExp(`(?<![\\p{L}\\p{N}_$.])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, "gu");

/** A word the text writes as code ("Lst[[1]]", "expr_1") or a constant of a program ("REQUIRESSTACK"). */
function isCode(word: string, text: string): boolean {
  const all = text.match(mentions(word))?.length ?? 0;
  const asCode = text.match(codeTouch(word))?.length ?? 0;
  // A long all-capitals word English does not know is a constant.
  return (all > 0 && asCode * 2 >= all) || (/^\p{Lu}{7,}$/u.test(word) && zipf(word) === 0);
}

/**
 * A one-word ranked term worth learning, as the learner should see it: a name written as one in
 * the text, widened to the name it always stands in ("CMD" → "R CMD"); null for anything else.
 */
function nameTerm(word: string, text: string, sentences: Sentence[]): string | null {
  if (isCode(word, text)) return null;
  const inside = new RegExp(`\\p{Ll}[,;]?\\s+${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, "u");
  // An acronym or a camel-case name, or capitalised after a lowercase word of its sentence (not
  // only as a sentence's first word, "Users can …").
  const name =
    /^\p{Lu}[\p{Lu}\d]+s?$|\p{Ll}\p{Lu}|\d/u.test(word) ||
    (/^\p{Lu}/u.test(word) && sentences.some((s) => inside.test(s.text)));
  if (!name) return null;
  const before = [...text.matchAll(new RegExp(`(\\S+)\\s+${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, "gu"))].map(
    (m) => m[1]!,
  );
  // Nearly always after the same capitalised word: part of a longer name.
  const lead = before[0] ?? "";
  const same =
    before.length >= 3 &&
    before.filter((b) => b === lead).length >= 0.8 * before.length &&
    /^\p{Lu}[\p{L}\d]*$/u.test(lead);
  return same ? `${lead} ${word}` : word;
}

/**
 * A heading's term as the text writes it: a heading capitalises every word ("Trace Stitching"),
 * the sentences only names ("trace stitching", "SpiderMonkey").
 */
function asWritten(term: string, text: string): string {
  const forms = new Map<string, number>();
  for (const m of text.matchAll(new RegExp(mentions(term).source, "giu"))) forms.set(m[0], (forms.get(m[0]) ?? 0) + 1);
  return [...forms].sort((a, b) => b[1] - a[1])[0]?.[0] ?? term;
}

const expansion = (d: Definition) =>
  d.predicate.split(/\s+/).length <= MAX_TERM_WORDS ? `${d.predicate} (${d.term})` : d.term;

/** The words of a concept ("Gagan Bansal" → gagan, bansal). */
const wordsOf = (c: string) => c.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? [];

/** The body text terms are read from: the sentences, without the lines listing people. */
export const bodyText = (all: Sentence[]): string =>
  all
    .filter((s) => !isNameList(s.text))
    .map((s) => s.text)
    .join(" ");

export function keyConcepts(all: Sentence[], headings: string[], limit = MAX_CONCEPTS): string[] {
  const people = all.filter((s) => isNameList(s.text));
  const sentences = all.filter((s) => !people.includes(s));
  const names = new Set(people.flatMap((s) => nameWords(s.text)).map((w) => w.toLowerCase()));
  const isPerson = (c: string) => wordsOf(c).every((w) => names.has(w));
  const text = bodyText(all);
  const candidates = [
    ...findDefinitions(sentences)
      .filter((d) => d.term.split(/\s+/).length <= MAX_TERM_WORDS && !isCode(d.term, text))
      .map((d) => (d.kind === "acronym" ? expansion(d) : d.term)),
    ...headingTerms(headings).map((h) => asWritten(h, text)),
    ...keyPhrases(text, 30)
      .map((p) => (p.phrase.includes(" ") ? p.phrase : nameTerm(p.phrase, text, sentences)))
      .filter((p): p is string => p !== null),
  ];
  const out: string[] = [];
  for (const c of candidates) {
    if (out.length >= limit) break;
    if (isPerson(c)) continue;
    // A phrase and its abbreviation are one concept, shown as the text introduces it: "dense passage retriever (DPR)".
    const long = out.findIndex((o) => abbreviates(c, o) || abbreviates(o, c));
    if (long >= 0) {
      const [phrase, short] = abbreviates(c, out[long]!) ? [out[long]!, c] : [c, out[long]!];
      out[long] = `${phrase} (${short})`;
    } else if (!out.some((o) => sameIdea(o, c))) out.push(c);
  }
  return out;
}

/** Whether `short` is an abbreviation whose letters are the initials of `phrase` ("DPR", "dense passage retriever"). */
function abbreviates(short: string, phrase: string): boolean {
  if (!/^\p{Lu}{2,6}s?$/u.test(short) || phrase.includes("(")) return false;
  const initials = (phrase.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w[0]!.toUpperCase()).join("");
  return initials.length >= 2 && initials === short.replace(/s$/, "");
}
