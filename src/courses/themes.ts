/**
 * Lexical profiles of a course's sources: how related they are (organization `auto`), which
 * themes they share (`thematic_bridge`) and their dominant theme (a course without a topic).
 * Word counts are enough here: the choice is between "one subject" and "separate subjects", and
 * it must work the same with or without an embedding model.
 */
import { stemmer } from "stemmer";
import { eng } from "stopword";
import { getOrCreate } from "../util.ts";

const STOP = new Set(eng);
const WORD = /\p{L}[\p{L}\p{N}'-]{2,}/gu;

export interface TermProfile {
  /** Stem → weight (1 + ln count). */
  weights: Map<string, number>;
  /** Stem → its most frequent surface word, for readable theme names. */
  surface: Map<string, string>;
  norm: number;
}

export function termProfile(text: string): TermProfile {
  const counts = new Map<string, number>();
  const forms = new Map<string, Map<string, number>>();
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0].replace(/'s$/, "");
    if (word.length < 4 || STOP.has(word)) continue;
    const stem = stemmer(word);
    counts.set(stem, (counts.get(stem) ?? 0) + 1);
    const f = getOrCreate(forms, stem, () => new Map());
    f.set(word, (f.get(word) ?? 0) + 1);
  }
  const weights = new Map<string, number>();
  let sq = 0;
  for (const [stem, n] of counts) {
    const w = 1 + Math.log(n);
    weights.set(stem, w);
    sq += w * w;
  }
  const surface = new Map<string, string>();
  for (const [stem, f] of forms) surface.set(stem, [...f.entries()].sort((a, b) => b[1] - a[1])[0]![0]);
  return { weights, surface, norm: Math.sqrt(sq) };
}

export function cosine(a: TermProfile, b: TermProfile): number {
  if (a.norm === 0 || b.norm === 0) return 0;
  const [small, large] = a.weights.size <= b.weights.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [stem, w] of small.weights) dot += w * (large.weights.get(stem) ?? 0);
  return dot / (a.norm * b.norm);
}

/** Mean pairwise cosine of the sources; 1 for a single source. */
export function relatedness(profiles: TermProfile[]): number {
  if (profiles.length < 2) return 1;
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < profiles.length; i++) {
    for (let j = i + 1; j < profiles.length; j++) {
      sum += cosine(profiles[i]!, profiles[j]!);
      pairs++;
    }
  }
  return sum / pairs;
}

export interface Theme {
  stem: string;
  word: string;
  /** Indexes of the sources that use it. */
  sources: number[];
}

/**
 * Themes used by at least two sources, strongest first: ranked by their weight in the source that
 * uses them least, so a theme must matter to every source that shares it.
 */
export function sharedThemes(profiles: TermProfile[], limit: number): Theme[] {
  const themes: (Theme & { score: number })[] = [];
  const seen = new Set<string>();
  for (const p of profiles) {
    for (const stem of p.weights.keys()) {
      if (seen.has(stem)) continue;
      seen.add(stem);
      const users = profiles.map((q, i) => (q.weights.has(stem) ? i : -1)).filter((i) => i >= 0);
      if (users.length < 2) continue;
      const score = Math.min(...users.map((i) => profiles[i]!.weights.get(stem)! / profiles[i]!.norm)) * users.length;
      themes.push({ stem, word: p.surface.get(stem)!, sources: users, score });
    }
  }
  return themes
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ stem, word, sources }) => ({ stem, word, sources }));
}

/** The heaviest word across all sources, title-cased: the fallback topic of a course without one. */
export function dominantTheme(profiles: TermProfile[]): string | null {
  const total = new Map<string, number>();
  const surface = new Map<string, string>();
  for (const p of profiles) {
    for (const [stem, w] of p.weights) {
      total.set(stem, (total.get(stem) ?? 0) + w / (p.norm || 1));
      if (!surface.has(stem)) surface.set(stem, p.surface.get(stem)!);
    }
  }
  const best = [...total.entries()].sort((a, b) => b[1] - a[1])[0];
  if (!best) return null;
  const word = surface.get(best[0])!;
  return word.charAt(0).toUpperCase() + word.slice(1);
}
