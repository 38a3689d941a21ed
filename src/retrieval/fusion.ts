/**
 * Fusion of the vector and BM25 rankings. Both methods are kept because bench/retrieval compares
 * them; DEFAULT_FUSION is chosen there on half of SciFact's train queries and judged on the other.
 */
export interface Ranked {
  seq: number;
  /** Higher is better. */
  score: number;
}

export type FusionParams =
  | { method: "rrf"; k: number; vectorWeight: number }
  | { method: "convex"; vectorWeight: number };

/**
 * Chosen by `bench/retrieval/run.ts --tune` with the built-in embedder on the tune half of SciFact's
 * train queries (even ids): the least vector weight within one standard error of the best tune-half
 * nDCG@10 (the best mean itself, convex 0.25, lost to BM25 on the held-out odd half). The built-in
 * embedder is lexical too, so its ranking mostly breaks ties among BM25's candidates: a small weight.
 */
export const DEFAULT_FUSION: FusionParams = { method: "convex", vectorWeight: 0.1 };

/** Reciprocal rank fusion: each list adds weight / (k + rank). Scale-free, so robust to score shapes. */
function rrf(vector: Ranked[], lexical: Ranked[], k: number, w: number): Map<number, number> {
  const out = new Map<number, number>();
  vector.forEach((r, i) => {
    out.set(r.seq, (out.get(r.seq) ?? 0) + w / (k + i + 1));
  });
  lexical.forEach((r, i) => {
    out.set(r.seq, (out.get(r.seq) ?? 0) + (1 - w) / (k + i + 1));
  });
  return out;
}

/** Min-max normalised scores mixed linearly; a chunk missing from one list gets 0 from it. */
function convex(vector: Ranked[], lexical: Ranked[], w: number): Map<number, number> {
  const out = new Map<number, number>();
  const addNormalised = (list: Ranked[], weight: number) => {
    if (list.length === 0) return;
    const max = list[0]!.score;
    const min = list[list.length - 1]!.score;
    const span = max - min;
    for (const r of list) out.set(r.seq, (out.get(r.seq) ?? 0) + weight * (span > 0 ? (r.score - min) / span : 1));
  };
  addNormalised(vector, w);
  addNormalised(lexical, 1 - w);
  return out;
}

/** Chunk seqs, best first. Both inputs must be sorted best first. */
export function fuse(vector: Ranked[], lexical: Ranked[], p: FusionParams = DEFAULT_FUSION): Ranked[] {
  const scores =
    p.method === "rrf" ? rrf(vector, lexical, p.k, p.vectorWeight) : convex(vector, lexical, p.vectorWeight);
  return [...scores].map(([seq, score]) => ({ seq, score })).sort((a, b) => b.score - a.score || a.seq - b.seq);
}
