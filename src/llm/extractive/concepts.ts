/**
 * A chapter's key concepts: the terms its text defines, its subheadings that are noun phrases
 * ("Trace trees", "Type specialization"), then its domain terms by rank (keyphrases.ts), without
 * two concepts for one idea ("trace tree" and "trace trees").
 */

import { COMMON_ZIPF, zipf } from "./background.ts";
import { findDefinitions } from "./definitions.ts";
import { keyPhrases, phraseRuns } from "./keyphrases.ts";
import { isStopword, type Sentence, stem } from "./text.ts";

const MAX_CONCEPTS = 8;
const HEADING_WORD_ZIPF = 3.7;
const MAX_TERM_WORDS = 4;

/** A heading that is itself a domain term: one noun phrase of at most four words, numbering dropped. */
function headingTerm(heading: string): string | null {
  const text = heading.replace(/^(\d+(\.\d+)*|[A-Z]\.|[IVX]+\.)\s+/, "").trim();
  const [runs] = phraseRuns([text]);
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
  const sa = a.toLowerCase().split(/\s+/).map(stem);
  const sb = b.toLowerCase().split(/\s+/).map(stem);
  return sa.every((s) => sb.includes(s)) || sb.every((s) => sa.includes(s));
}

export function keyConcepts(sentences: Sentence[], headings: string[], limit = MAX_CONCEPTS): string[] {
  const candidates = [
    ...findDefinitions(sentences)
      .filter((d) => d.kind !== "acronym" && d.term.split(/\s+/).length <= MAX_TERM_WORDS)
      .map((d) => d.term),
    ...headings.map(headingTerm).filter((h): h is string => h !== null),
    ...keyPhrases(sentences.map((s) => s.text).join(" "), 20).map((p) => p.phrase),
  ];
  const out: string[] = [];
  for (const c of candidates) {
    if (out.length >= limit) break;
    if (!out.some((o) => sameIdea(o, c))) out.push(c);
  }
  return out;
}
