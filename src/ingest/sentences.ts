/**
 * Sentences as exact pieces of their text. sbd finds the boundaries well but may drop characters
 * at a boundary it should not have found ("a table for .docx parsing" → "a table for", "docx
 * parsing"; "emcc add.c" → "emcc add", "c …"): a chunk's overlap or a quoted answer built from its
 * output would no longer be the document's text. Here each boundary sbd finds is located in the
 * text itself, and one that falls inside a word is no boundary; the pieces, joined, are the text.
 */
import type Sbd from "sbd";

export interface SplitOptions {
  /** A newline ends a sentence (sbd's `newline_boundaries`). */
  newlines?: boolean;
}

/**
 * Where sentence `next` starts in `text` at or after `from`: its first word followed, after any
 * white space, by its second (words it shares with the sentence before are skipped that way).
 */
function startOf(text: string, next: string, from: number): number | undefined {
  const [first, second] = next.split(/\s+/, 2);
  for (
    let at = text.indexOf(first!, from), tries = 0;
    at >= 0 && tries < 8;
    at = text.indexOf(first!, at + 1), tries++
  ) {
    if (second === undefined) return at;
    let k = at + first!.length;
    while (k < text.length && /\s/.test(text[k]!)) k++;
    if (k > at + first!.length && text.startsWith(second, k)) return at;
  }
  return undefined;
}

/** The sentences of `text`, trimmed, each an exact substring of it, in order. */
export function splitSentences(text: string, options: SplitOptions = {}): string[] {
  // Required on first use, not at server start (a tenth of a second); a literal name keeps it in the executable.
  const found = (require("sbd") as typeof Sbd)
    .sentences(text, { newline_boundaries: options.newlines ?? false, preserve_whitespace: false })
    .map((s) => s.trim())
    .filter(Boolean);
  const cuts: number[] = [];
  let cursor = 0;
  for (let i = 1; i < found.length; i++) {
    // Past most of the sentence before it, so that words it shares with the next one are not taken for it.
    const at = startOf(text, found[i]!, cursor + Math.floor(found[i - 1]!.length * 0.8));
    if (at === undefined || at <= cursor || !/\s/.test(text[at - 1]!)) continue;
    cuts.push(at);
    cursor = at;
  }
  const pieces: string[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    const piece = text.slice(from, cut).trim();
    if (piece) pieces.push(piece);
    from = cut;
  }
  return pieces;
}
