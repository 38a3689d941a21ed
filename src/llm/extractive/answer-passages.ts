/**
 * Retrieved passages without near-copies. Course Q&A searches a course's chapters and the documents
 * they were built from, so a sentence often comes back twice: in the chapter that quotes it and in
 * its source's chunk. A passage whose word trigrams are mostly inside another one's says nothing
 * new: the two count once, as the longer text at the better-ranked position. So does a passage
 * whose trigrams are mostly inside those kept before it together (a chapter that condenses two
 * source chunks found with it). Consecutive chunks of a document still share the sentence or two
 * the chunker overlaps them by.
 */

// Share of the smaller passage's trigrams found in the larger one above which they are one passage.
const CONTAINED = 0.8;

// Words are numbered as first met in the call, and a trigram is the number its three words make
// (2^17 words each, exact in a double; a text of one or two words a negative number): sets of
// numbers compare far faster than sets of strings.
const WORD_IDS = 131072;

function trigramReader(): (text: string) => Set<number> {
  const ids = new Map<string, number>();
  const id = (w: string) => ids.get(w) ?? ids.set(w, ids.size % WORD_IDS).get(w)!;
  return (text) => {
    const w = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(id);
    if (w.length < 3) return new Set([-w.reduce((k, x) => k * WORD_IDS + x + 1, 0) - 1]);
    const grams = new Set<number>();
    for (let i = 2; i < w.length; i++) grams.add((w[i - 2]! * WORD_IDS + w[i - 1]!) * WORD_IDS + w[i]!);
    return grams;
  };
}

function contained(small: Set<number>, large: { has(gram: number): boolean }): boolean {
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  return shared >= CONTAINED * small.size;
}

/**
 * `items` in their order, each near-copy of an earlier one dropped, or put in its place when it is
 * the longer text. Each passage's trigrams are read once, and those of the passages kept gathered
 * in one set as they come: the union is read again only when a longer near-copy replaces a kept
 * passage, which drops the shorter one's trigrams.
 */
export function distinctPassages<T extends { text: string }>(items: T[]): T[] {
  const trigramsOf = trigramReader();
  const kept: { item: T; grams: Set<number> }[] = [];
  let union = new Set<number>();
  for (const item of items) {
    const grams = trigramsOf(item.text);
    const twin = kept.find((k) => (grams.size <= k.grams.size ? contained(grams, k.grams) : contained(k.grams, grams)));
    if (twin) {
      if (grams.size > twin.grams.size) {
        Object.assign(twin, { item, grams });
        union = new Set(kept.flatMap((k) => [...k.grams]));
      }
      continue;
    }
    if (!contained(grams, union)) {
      kept.push({ item, grams });
      for (const g of grams) union.add(g);
    }
  }
  return kept.map((k) => k.item);
}
