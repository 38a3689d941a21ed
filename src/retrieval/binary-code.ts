/**
 * Binary codes for the first, coarse stage of vector search. A code is the signs of a fixed random
 * ±1 projection of the vector (SimHash): the share of differing bits estimates the angle between
 * two vectors, so a Hamming-distance scan over 64-byte codes finds the candidates that the exact
 * cosine then ranks, at a fraction of the cost of scanning full float vectors.
 */
export const CODE_BITS = 512;

const projections = new Map<number, Int8Array>();

/** Deterministic PRNG (mulberry32): the projection, and so every stored code, depends only on the dimension. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function projectionFor(dimension: number): Int8Array {
  let p = projections.get(dimension);
  if (!p) {
    const rand = prng(dimension * 7919 + CODE_BITS);
    p = new Int8Array(CODE_BITS * dimension);
    for (let i = 0; i < p.length; i++) p[i] = rand() < 0.5 ? -1 : 1;
    projections.set(dimension, p);
  }
  return p;
}

export function binaryCode(v: Float32Array): Uint8Array {
  const p = projectionFor(v.length);
  const code = new Uint8Array(CODE_BITS / 8);
  for (let bit = 0, row = 0; bit < CODE_BITS; bit++, row += v.length) {
    let s = 0;
    for (let j = 0; j < v.length; j++) s += p[row + j]! * v[j]!;
    if (s > 0) code[bit >> 3]! |= 1 << (bit & 7);
  }
  return code;
}
