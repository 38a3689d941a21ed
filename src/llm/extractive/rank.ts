/**
 * Sentence ranking: TextRank (PageRank over a sentence-similarity graph, Mihalcea & Tarau 2004),
 * optionally biased towards a query, then Maximal Marginal Relevance to pick diverse sentences.
 * Hand-written because it is ~60 lines and the npm TextRank packages are unmaintained.
 */
import type { Sentence } from "./text.ts";
import { contentStems } from "./text.ts";

/** Similarity by shared stems, normalised by sentence length as in the TextRank paper. */
function overlapSimilarity(a: Set<string>, b: Set<string>): number {
  if (a.size < 2 || b.size < 2) return 0;
  let shared = 0;
  for (const s of a) if (b.has(s)) shared++;
  return shared / (Math.log(a.size) + Math.log(b.size));
}

export function cosine(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const s of a) if (b.has(s)) shared++;
  return shared / Math.sqrt(a.size * b.size);
}

/**
 * TextRank score per sentence (same order as input), summing to 1. The graph is held as flat
 * arrays (neighbours in the order they were found): a chapter's sources have a few hundred
 * thousand edges, and iterating a Map of them thirty times was most of a course's ranking.
 */
export function textRank(sentences: Sentence[], iterations = 30, damping = 0.85): number[] {
  const n = sentences.length;
  if (n === 0) return [];
  const sets = sentences.map((s) => new Set(s.stems));
  // Sparse graph via an inverted index: only pairs sharing a stem get an edge.
  const postings = new Map<string, number[]>();
  sets.forEach((set, i) => {
    for (const st of set) {
      const list = postings.get(st);
      if (list) list.push(i);
      else postings.set(st, [i]);
    }
  });
  const pairs: [number, number, number][] = [];
  const degree = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const seen = new Set<number>();
    for (const st of sets[i]!) for (const j of postings.get(st)!) if (j > i) seen.add(j);
    for (const j of seen) {
      const w = overlapSimilarity(sets[i]!, sets[j]!);
      if (w > 0) {
        pairs.push([i, j, w]);
        degree[i]!++;
        degree[j]!++;
      }
    }
  }
  // Each node's edges in the order they were added, as the summation order of its out-weight.
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i]! + degree[i]!;
  const fill = start.slice(0, n);
  const target = new Int32Array(start[n]!);
  const weight = new Float64Array(start[n]!);
  for (const [i, j, w] of pairs) {
    target[fill[i]!] = j;
    weight[fill[i]!++] = w;
    target[fill[j]!] = i;
    weight[fill[j]!++] = w;
  }
  const outWeight = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    let sum = 0;
    for (let e = start[j]!; e < start[j + 1]!; e++) sum += weight[e]!;
    outWeight[j] = sum;
  }
  let score = new Array<number>(n).fill(1 / n);
  for (let it = 0; it < iterations; it++) {
    const next = new Array<number>(n).fill((1 - damping) / n);
    for (let j = 0; j < n; j++) {
      if (outWeight[j] === 0) continue;
      const share = (damping * score[j]!) / outWeight[j]!;
      for (let e = start[j]!; e < start[j + 1]!; e++) next[target[e]!]! += share * weight[e]!;
    }
    score = next;
  }
  const total = score.reduce((a, b) => a + b, 0) || 1;
  return score.map((s) => s / total);
}

export interface RankOptions {
  /** Bias towards sentences sharing words with this text (chapter title, objectives, question). */
  query?: string;
  /** 1 = relevance only, 0 = diversity only. */
  lambda?: number;
}

/** TextRank centrality, mixed half and half with similarity to the query when one is given; max 1. */
function relevanceOf(sentences: Sentence[], sets: Set<string>[], query?: string): number[] {
  const rank = textRank(sentences);
  const maxRank = Math.max(...rank) || 1;
  const q = query ? new Set(contentStems(query)) : null;
  return sentences.map((_, i) => {
    const r = rank[i]! / maxRank;
    return q && q.size > 0 ? 0.5 * r + 0.5 * cosine(sets[i]!, q) : r;
  });
}

/** All sentences, most relevant first. */
export function rankSentences(sentences: Sentence[], query?: string): Sentence[] {
  const sets = sentences.map((s) => new Set(s.stems));
  const relevance = relevanceOf(sentences, sets, query);
  return sentences
    .map((s, i) => ({ s, r: relevance[i]! }))
    .sort((a, b) => b.r - a.r || a.s.index - b.s.index)
    .map((x) => x.s);
}

/** The `k` best sentences, diverse by MMR, returned in reading order. */
export function topSentences(sentences: Sentence[], k: number, opts: RankOptions = {}): Sentence[] {
  if (sentences.length === 0 || k <= 0) return [];
  const sets = sentences.map((s) => new Set(s.stems));
  const relevance = relevanceOf(sentences, sets, opts.query);
  const lambda = opts.lambda ?? 0.7;
  const chosen: number[] = [];
  const remaining = new Set(sentences.map((_, i) => i));
  while (chosen.length < k && remaining.size > 0) {
    let best = -1;
    let bestScore = -Infinity;
    for (const i of remaining) {
      const redundancy = chosen.reduce((m, j) => Math.max(m, cosine(sets[i]!, sets[j]!)), 0);
      const s = lambda * relevance[i]! - (1 - lambda) * redundancy;
      if (s > bestScore) {
        bestScore = s;
        best = i;
      }
    }
    chosen.push(best);
    remaining.delete(best);
  }
  return chosen.sort((a, b) => a - b).map((i) => sentences[i]!);
}
