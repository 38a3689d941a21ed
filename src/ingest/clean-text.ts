/**
 * Clean text for every extractor: words hyphenated at line ends rejoined when the joined word is a
 * word of the document or of an English word list, and stray hyphen-space splits ("Sun- Spider")
 * mended the same way.
 *
 * Extractors mark a hyphen at a line end as a soft hyphen (U+00AD) between the two halves; only
 * here, with the whole document's vocabulary, can "exam|ple" (→ example) be told from "well|known"
 * (→ well-known).
 */
import type { Block } from "./document.ts";
import { isEnglishWord } from "./english-words.ts";

const SOFT_HYPHEN = "\u00ad";

/** Lowercased words the document writes whole (not split at a line end). */
function vocabularyOf(blocks: Block[]): Set<string> {
  const vocab = new Set<string>();
  for (const b of blocks) {
    if (!b.text.includes(SOFT_HYPHEN) && !b.text.includes("- ")) {
      for (const w of b.text.toLowerCase().match(/\p{L}+/gu) ?? []) vocab.add(w);
      continue;
    }
    for (const token of b.text.toLowerCase().split(/[^\p{L}\u00ad-]+/u)) {
      if (!token.includes(SOFT_HYPHEN) && !token.endsWith("-")) for (const w of token.split("-")) if (w) vocab.add(w);
    }
  }
  return vocab;
}

/** Words that follow a "pre- and post-" style suspended hyphen: the split is meant. */
const SUSPENDED = new Set(["and", "or", "to", "nor", "as", "vs", "versus"]);

export interface Rejoiner {
  /** Whether "head"+"tail" is one word of this document or of the dictionary. */
  isWord(head: string, tail: string): boolean;
}

export function rejoiner(vocab: Set<string>): Rejoiner {
  return {
    isWord(head, tail) {
      const joined = (head + tail).toLowerCase();
      if (vocab.has(joined)) return true;
      // A dictionary word only when the tail is lowercase: "Sun- Spider" joins by the document's own use alone.
      return /^\p{Ll}/u.test(tail) && isEnglishWord(joined);
    },
  };
}

/** Text with its line-end hyphens resolved and "word- word" splits mended where the joined word exists. */
export function rejoinHyphenated(text: string, words: Rejoiner): string {
  let out = text;
  if (out.includes(SOFT_HYPHEN)) {
    out = out.replace(/(\p{L}+)\u00ad\s*(\p{L}+)/gu, (_m, head: string, tail: string) =>
      words.isWord(head, tail) ? head + tail : `${head}-${tail}`,
    );
    out = out.replaceAll(SOFT_HYPHEN, "-");
  }
  if (out.includes("- ")) {
    out = out.replace(/(\p{L}+)- (\p{L}+)/gu, (m, head: string, tail: string) =>
      !SUSPENDED.has(tail.toLowerCase()) && words.isWord(head, tail) ? head + tail : m,
    );
  }
  return out;
}

const needsCleaning = (b: Block) => b.kind !== "code" && (b.text.includes(SOFT_HYPHEN) || b.text.includes("- "));

/** The blocks with hyphenation resolved against the document's own vocabulary. */
export function cleanBlocks(blocks: Block[]): Block[] {
  if (!blocks.some(needsCleaning)) return blocks;
  const words = rejoiner(vocabularyOf(blocks));
  return blocks.map((b) => {
    if (!needsCleaning(b)) return b;
    const text = rejoinHyphenated(b.text, words);
    const cells = b.cells?.map((row) => row.map((c) => rejoinHyphenated(c, words)));
    return { ...b, text, ...(cells ? { cells } : {}) };
  });
}
