/**
 * The English word list, looked up by bisection over the package's file (english-words.ts): every
 * word of the list is found, and words that are not in it are not.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { isEnglishWord } from "../../src/ingest/english-words.ts";

// Read as data, not required: Bun's module cache would hand this file's import as a path to a require.
const words = JSON.parse(
  readFileSync(Bun.resolveSync("an-array-of-english-words/index.json", import.meta.dir), "utf8"),
) as string[];
const listed = new Set(words);

describe("English word lookup", () => {
  test("finds every word of the list, the first and the last among them", () => {
    expect(words.filter((w) => !isEnglishWord(w))).toEqual([]);
    expect(isEnglishWord(words[0]!)).toBe(true);
    expect(isEnglishWord(words.at(-1)!)).toBe(true);
  });

  test("finds no word the list lacks: prefixes, extensions, capitals, other letters, the empty word", () => {
    const misses = words
      .filter((_, i) => i % 50 === 0)
      .flatMap((w) => [w.slice(0, -1), `${w}q`, `${w}zz`, `a${w}`])
      .filter((w) => !listed.has(w));
    expect(misses.length).toBeGreaterThan(10_000);
    expect(misses.filter((w) => isEnglishWord(w))).toEqual([]);
    for (const w of ["", "Example", "naïve", "well-known", "zzzzzz", "aaaaaaa"]) expect(isEnglishWord(w)).toBe(false);
    expect(isEnglishWord("example")).toBe(true);
  });
});
