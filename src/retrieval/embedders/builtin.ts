/**
 * The built-in lexical embedder: no weights, deterministic, always available. Each text becomes a
 * bag of features (Porter stems of content words, and character 3-5-grams of those words, which
 * catch inflections, compounds and misspellings the stems miss), hashed with signs into a fixed
 * number of dimensions ("feature hashing"). Weights are TF-IDF-like: stopwords (the words with
 * the lowest IDF in any corpus) weigh nothing and term frequency counts sub-linearly, 1 + ln(tf).
 * The feature weights were tuned on SciFact's train judgments (bench/retrieval).
 */
import { stemmer } from "stemmer";
import { STOPWORDS, words } from "../text.ts";
import { type Embedder, l2Normalize } from "./types.ts";

const STEM_WEIGHT = 1;
const CHAR_GRAM_WEIGHT = 0.5;
const MIN_GRAM = 3;
const MAX_GRAM = 5;

const FNV_PRIME = 0x01000193;
/** The two seeds of FNV-1a: the slot's hash, and the independent one that picks the sign. */
const SLOT_SEED = 0x811c9dc5;
const SIGN_SEED = 0x01000193;

/** One step of FNV-1a, 32 bits: stable across runtimes and versions, unlike Bun.hash, so stored vectors stay valid. */
const step = (h: number, code: number) => Math.imul(h ^ code, FNV_PRIME);

/** FNV-1a state after a feature's prefix ("w:" for stems, "c:" for character grams). */
const prefixed = (seed: number, prefix: string) => step(step(seed, prefix.charCodeAt(0)), prefix.charCodeAt(1));
const STEM = { slot: prefixed(SLOT_SEED, "w:"), sign: prefixed(SIGN_SEED, "w:") };
const GRAM = { slot: prefixed(SLOT_SEED, "c:"), sign: prefixed(SIGN_SEED, "c:") };
const OPEN = "<".charCodeAt(0);
const CLOSE = ">".charCodeAt(0);

/**
 * A text's features, counted in the order they first occur (stems, then 3-grams, 4-grams and
 * 5-grams of each word padded as "<word>"), each known by the two FNV-1a hashes of its key
 * ("w:stem", "c:gram"), hashed as the characters are read: an abstract has about 4,000 features,
 * and making a string per feature and looking it up was most of the embedder's time. An open
 * addressing table over both hashes finds a feature's entry; two different keys sharing both
 * hashes (64 bits) happen about never.
 */
class Features {
  slot: number[] = [];
  sign: number[] = [];
  weight: number[] = [];
  count: number[] = [];
  /** Entry index + 1 by hash position; 0 is empty. */
  private table = new Int32Array(1 << 13);

  reset(): void {
    this.slot = [];
    this.sign = [];
    this.weight = [];
    this.count = [];
    this.table.fill(0);
  }

  add(slot: number, sign: number, weight: number): void {
    const mask = this.table.length - 1;
    for (let at = (slot ^ Math.imul(sign, 0x9e3779b1)) & mask; ; at = (at + 1) & mask) {
      const entry = this.table[at]! - 1;
      if (entry < 0) {
        this.table[at] = this.slot.length + 1;
        this.slot.push(slot);
        this.sign.push(sign);
        this.weight.push(weight);
        this.count.push(1);
        if (this.slot.length * 2 > this.table.length) this.grow();
        return;
      }
      if (this.slot[entry] === slot && this.sign[entry] === sign) {
        this.count[entry]!++;
        return;
      }
    }
  }

  private grow(): void {
    this.table = new Int32Array(this.table.length * 2);
    const mask = this.table.length - 1;
    this.slot.forEach((slot, entry) => {
      let at = (slot ^ Math.imul(this.sign[entry]!, 0x9e3779b1)) & mask;
      while (this.table[at] !== 0) at = (at + 1) & mask;
      this.table[at] = entry + 1;
    });
  }
}

const scratch = new Features();

function features(text: string): Features {
  const out = scratch;
  out.reset();
  const content = words(text).filter((w) => !STOPWORDS.has(w));
  for (const w of content) {
    const stem = stemmer(w.replace(/['’]s$/, ""));
    let slot = STEM.slot;
    let sign = STEM.sign;
    for (let i = 0; i < stem.length; i++) {
      slot = step(slot, stem.charCodeAt(i));
      sign = step(sign, stem.charCodeAt(i));
    }
    out.add(slot, sign, STEM_WEIGHT);
  }
  for (const w of content) {
    // The padded word "<w>": position 0 is "<", the last ">".
    const length = w.length + 2;
    const code = (i: number) => (i === 0 ? OPEN : i === length - 1 ? CLOSE : w.charCodeAt(i - 1));
    for (let n = MIN_GRAM; n <= MAX_GRAM; n++) {
      for (let i = 0; i + n <= length; i++) {
        let slot = GRAM.slot;
        let sign = GRAM.sign;
        for (let k = i; k < i + n; k++) {
          slot = step(slot, code(k));
          sign = step(sign, code(k));
        }
        out.add(slot, sign, CHAR_GRAM_WEIGHT);
      }
    }
  }
  return out;
}

function embedText(text: string, dimension: number): Float32Array {
  const v = new Float32Array(dimension);
  const f = features(text);
  for (let i = 0; i < f.slot.length; i++) {
    // The second, independent hash picks the sign, so colliding features cancel out on average.
    const sign = f.sign[i]! & 1 ? 1 : -1;
    v[(f.slot[i]! >>> 0) % dimension]! += sign * f.weight[i]! * (1 + Math.log(f.count[i]!));
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
