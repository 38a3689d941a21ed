/**
 * ~275,000 English words (an-array-of-english-words), looked up in the package's own file: a
 * sorted JSON array of lowercase a-z words, searched by bisection over its bytes. Made into a Set,
 * the list cost each extraction process ~0.6 s of CPU and ~40 MB on its first hyphenated word;
 * read as bytes it costs a 3.4 MB read, and a lookup a few dozen byte comparisons.
 */
import { readFileSync } from "node:fs";
import listPath from "an-array-of-english-words/index.json" with { type: "file" };

let list: Uint8Array | null = null;

const A = 0x61;
const Z = 0x7a;
const isLetter = (byte: number | undefined) => byte !== undefined && byte >= A && byte <= Z;

/** -1, 0 or 1 as `word` sorts before, equal to or after the list's bytes [start, end). */
function compare(word: string, bytes: Uint8Array, start: number, end: number): number {
  const length = Math.min(word.length, end - start);
  for (let i = 0; i < length; i++) {
    const diff = word.charCodeAt(i) - bytes[start + i]!;
    if (diff !== 0) return diff < 0 ? -1 : 1;
  }
  return Math.sign(word.length - (end - start));
}

/** Whether `word` (lowercase) is in the list. */
export function isEnglishWord(word: string): boolean {
  if (!/^[a-z]+$/.test(word)) return false;
  // The executable embeds it zstd-compressed (build.ts).
  list ??= listPath.endsWith(".zst") ? Bun.zstdDecompressSync(readFileSync(listPath)) : readFileSync(listPath);
  const bytes = list;
  // Invariant: any word of the list equal to `word` starts in [low, high).
  let low = 0;
  let high = bytes.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    let start = mid;
    if (isLetter(bytes[start])) while (isLetter(bytes[start - 1])) start--;
    else while (start < high && !isLetter(bytes[start])) start++;
    if (start >= high) {
      high = mid;
      continue;
    }
    let end = start;
    while (isLetter(bytes[end])) end++;
    const order = compare(word, bytes, start, end);
    if (order === 0) return true;
    if (order < 0) high = start;
    else low = end;
  }
  return false;
}
