/**
 * Consecutive chunks of one section overlap by a sentence or two so a search hit is never cut off;
 * whatever reads a document's chunks as one text (courses, the repeat detector) reads each overlap once.
 */

/** A chunk's text less the sentences it repeats from the end of the chunk before it. */
export function withoutOverlap(prev: string | null, text: string): string {
  if (!prev) return text;
  const max = Math.min(text.length - 1, prev.length, 1200);
  for (let len = max; len >= 12; len--) {
    const next = text[len];
    if ((next === " " || next === "\n") && prev.endsWith(text.slice(0, len))) return text.slice(len).trimStart();
  }
  return text;
}
