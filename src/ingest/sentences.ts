/**
 * Sentences as exact pieces of their text. sbd finds the boundaries well but may drop characters
 * at a boundary it should not have found ("a table for .docx parsing" → "a table for", "docx
 * parsing"; "emcc add.c" → "emcc add", "c …"): a chunk's overlap or a quoted answer built from its
 * output would no longer be the document's text. Here each boundary sbd finds is located in the
 * text itself, and one that falls inside a word is no boundary; the pieces, joined, are the text.
 */
import sbd from "sbd";

export interface SplitOptions {
  /** A newline ends a sentence (sbd's `newline_boundaries`). */
  newlines?: boolean;
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The sentences of `text`, trimmed, each an exact substring of it, in order. */
export function splitSentences(text: string, options: SplitOptions = {}): string[] {
  const found = sbd
    .sentences(text, { newline_boundaries: options.newlines ?? false, preserve_whitespace: false })
    .map((s) => s.trim())
    .filter(Boolean);
  const cuts: number[] = [];
  let cursor = 0;
  for (let i = 1; i < found.length; i++) {
    const tokens = found[i]!.split(/\s+/).slice(0, 5);
    const start = new RegExp(tokens.map(literal).join("\\s+"), "gu");
    // Past most of the sentence before it, so that words it shares with the next one are not taken for it.
    start.lastIndex = cursor + Math.floor(found[i - 1]!.length * 0.8);
    const at = start.exec(text)?.index;
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
