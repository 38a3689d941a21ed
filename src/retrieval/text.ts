/** Word-level text handling shared by the chunker, the built-in embedder and the FTS query. */
import { stemmer } from "stemmer";
import { eng } from "stopword";

export const STOPWORDS: ReadonlySet<string> = new Set(eng);

// Letters and digits, joined by inner apostrophes, hyphens or dots ("don't", "covid-19", "3.5").
const WORD_RE = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu;

/** Lower-cased words without diacritics, in order. */
export function words(text: string): string[] {
  const folded = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
  return folded.match(WORD_RE) ?? [];
}

// Indexing and every query's embedding stem the same words again and again: each is stemmed once.
// Emptied past a bound, so a long-lived server does not grow with every word it has read.
const STEMS = new Map<string, string>();
const MAX_STEMS = 100_000;

function stemOf(word: string): string {
  let s = STEMS.get(word);
  if (s === undefined) {
    s = stemmer(word.replace(/['’]s$/, ""));
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    STEMS.set(word, s);
  }
  return s;
}

/** Porter stems of the content words (stopwords dropped). */
export function contentStems(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (!STOPWORDS.has(w)) out.push(stemOf(w));
  }
  return out;
}

/**
 * Token estimate close to common sub-word tokenizers on English prose (about 0.75 words per token),
 * without loading a vocabulary: chunk sizes only need to be roughly right.
 */
export function estimateTokens(text: string): number {
  const wordCount = text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  const symbols = text.match(/[^\s\p{L}\p{N}]/gu)?.length ?? 0;
  return Math.ceil(wordCount * 1.3 + symbols * 0.5);
}
