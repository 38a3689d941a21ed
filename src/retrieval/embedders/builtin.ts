/**
 * The built-in lexical embedder: no weights, deterministic, always available. Each text becomes a
 * bag of features (Porter stems of content words, and character 3-5-grams of those words, which
 * catch inflections, compounds and misspellings the stems miss), hashed with signs into a fixed
 * number of dimensions ("feature hashing"). Weights are TF-IDF-like: stopwords (the words with
 * the lowest IDF in any corpus) weigh nothing and term frequency counts sub-linearly, 1 + ln(tf).
 * The feature weights were tuned on SciFact's train judgments (bench/retrieval).
 */
import { contentStems, STOPWORDS, words } from "../text.ts";
import { type Embedder, l2Normalize } from "./types.ts";

const STEM_WEIGHT = 1;
const CHAR_GRAM_WEIGHT = 0.5;
const MIN_GRAM = 3;
const MAX_GRAM = 5;

/** FNV-1a, 32 bits: stable across runtimes and versions, unlike Bun.hash, so stored vectors stay valid. */
function fnv1a(s: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function features(text: string): Map<string, { count: number; weight: number }> {
  const out = new Map<string, { count: number; weight: number }>();
  const add = (key: string, weight: number) => {
    const f = out.get(key);
    if (f) f.count++;
    else out.set(key, { count: 1, weight });
  };
  for (const s of contentStems(text)) add(`w:${s}`, STEM_WEIGHT);
  for (const w of words(text)) {
    if (STOPWORDS.has(w)) continue;
    const padded = `<${w}>`;
    for (let n = MIN_GRAM; n <= MAX_GRAM; n++) {
      for (let i = 0; i + n <= padded.length; i++) add(`c:${padded.slice(i, i + n)}`, CHAR_GRAM_WEIGHT);
    }
  }
  return out;
}

function embedText(text: string, dimension: number): Float32Array {
  const v = new Float32Array(dimension);
  for (const [key, f] of features(text)) {
    const h = fnv1a(key);
    // A second, independent hash picks the sign, so colliding features cancel out on average.
    const sign = fnv1a(key, 0x01000193) & 1 ? 1 : -1;
    v[h % dimension]! += sign * f.weight * (1 + Math.log(f.count));
  }
  return l2Normalize(v);
}

export function builtinEmbedder(dimension = 384, reason = "configured"): Embedder {
  return {
    id: `builtin-hash-${dimension}`,
    dimension,
    async embed(texts) {
      return texts.map((t) => embedText(t, dimension));
    },
    describe: () => `builtin-hash-${dimension} (lexical, no model; ${reason})`,
  };
}
