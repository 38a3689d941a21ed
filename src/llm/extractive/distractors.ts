/**
 * Wrong choices of the same kind as the right one: other domain terms of the course for a term
 * (names for a name, plurals for a plural), figures of the same form and magnitude for a figure,
 * other definitions for a definition. A distractor never shares a stem with the answer (it could
 * be right too) or with another distractor (it would give the pair away).
 */
import { overlaps } from "./keyphrases.ts";
import { containsPhrase, hash, wordCount } from "./text.ts";

const WRONG = 3;

/** Picks `n` items from `pool` in an order fixed by `seed`, preferring those `closeness` ranks first. */
function pick<T>(pool: T[], n: number, seed: number, closeness: (t: T) => number, clash: (a: T, b: T) => boolean): T[] {
  const ordered = pool
    .map((t, i) => ({ t, d: closeness(t) + (hash(`${seed}:${i}`) % 1000) / 1000 }))
    .sort((a, b) => a.d - b.d);
  const out: T[] = [];
  for (const { t } of ordered) {
    if (out.length >= n) break;
    if (!out.some((o) => clash(o, t))) out.push(t);
  }
  return out;
}

const isName = (s: string) => /^\p{Lu}/u.test(s) || /\p{Lu}{2}/u.test(s);
/** A common noun phrase in the plural: a blank read as "k _____ of which" takes only a plural. */
const isPlural = (s: string) => !isName(s) && /\p{Ll}{2}s$/u.test(s) && !/(ss|us|is)$/.test(s);

/**
 * Other domain terms of the answer's kind (a name for a name, a plural for a plural) and of similar
 * length, none found in `context` (the question's own text).
 */
export function termDistractors(answer: string, terms: string[], context: string, seed: number): string[] {
  const words = wordCount(answer);
  const pool = [...new Set(terms)].filter(
    (t) => t.toLowerCase() !== answer.toLowerCase() && !overlaps(t, answer) && !containsPhrase(context, t),
  );
  return pick(
    pool,
    WRONG,
    seed,
    (t) =>
      Math.abs(wordCount(t) - words) +
      (isName(t) === isName(answer) ? 0 : 1.5) +
      (isName(answer) || isPlural(t) === isPlural(answer) ? 0 : 1.5),
    (a, b) => overlaps(a, b),
  );
}

/** Other definitions, closest in length first, none mentioning the term asked about. */
export function definitionDistractors(answer: string, term: string, definitions: string[], seed: number): string[] {
  const length = wordCount(answer);
  const pool = [...new Set(definitions)].filter((d) => d !== answer && !containsPhrase(d, term));
  return pick(
    pool,
    WRONG,
    seed,
    (d) => Math.abs(wordCount(d) - length) / Math.max(4, length),
    (a, b) => a === b,
  );
}

/**
 * Figures of the same form and magnitude as `value` ("23%" → other percentages, "1998" → nearby
 * years, "2.5x" → other factors with one decimal, "150" → other three-digit counts), never one
 * that appears in `context`.
 */
export function numberDistractors(value: string, form: string, context: string, seed: number): string[] {
  const m = /^([\d,.]+)(.*)$/.exec(value);
  if (!m) return [];
  const digits = m[1]!;
  const unit = m[2]!;
  const n = Number(digits.replace(/,/g, ""));
  const decimals = digits.includes(".") ? digits.split(".")[1]!.length : 0;
  const grouped = digits.includes(",");
  const format = (x: number) => {
    const fixed = x.toFixed(decimals);
    return `${grouped ? Number(fixed).toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals }) : fixed}${unit}`;
  };
  let candidates: number[];
  if (form === "year") candidates = [-7, -4, -2, 2, 3, 5, 8].map((d) => n + d);
  else if (form === "percent") candidates = [0.4, 0.6, 0.75, 1.3, 1.6, 2].map((f) => Math.min(99, Math.max(1, n * f)));
  else candidates = [0.25, 0.5, 0.75, 1.5, 2, 3, 4].map((f) => n * f);
  const step = 10 ** -decimals;
  const wrong = [...new Set(candidates.map((x) => Math.max(step, Math.round(x / step) * step)))]
    .filter((x) => Math.abs(x - n) >= step / 2 && (form !== "integer" || Number.isInteger(x)))
    .map(format)
    .filter((s) => s !== value && !context.includes(s.replace(unit, "").trim()));
  return pick(
    wrong,
    WRONG,
    seed,
    () => 0,
    (a, b) => a === b,
  );
}

/** The answer placed among the distractors at a position fixed by `seed`: shuffled, yet the same every time. */
export function shuffled(answer: string, wrong: string[], seed: number): { choices: string[]; answer: number } {
  const at = seed % (wrong.length + 1);
  return { choices: [...wrong.slice(0, at), answer, ...wrong.slice(at)], answer: at };
}
