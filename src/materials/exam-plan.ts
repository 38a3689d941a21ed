/**
 * How an exam of `size` questions is split: an even share per chapter, a fixed type mix within
 * each share, and batches of one chapter and one type. Single-type batches keep each call's schema
 * simple and make the mix exact.
 */
import type { ExamQuestionType } from "../llm/artefacts.ts";

// 60% multiple choice, 40% short answer; quantitative chapters trade some of both for worked problems.
const MIX: ExamQuestionType[] = ["mcq", "short_answer", "mcq", "mcq", "short_answer"];
const QUANT_MIX: ExamQuestionType[] = ["mcq", "short_answer", "worked_problem", "mcq", "mcq"];

/** Questions per chapter: equal shares, the remainder to the earliest chapters. */
export function chapterShares(chapters: number, size: number): number[] {
  const base = Math.floor(size / chapters);
  return Array.from({ length: chapters }, (_, i) => base + (i < size % chapters ? 1 : 0));
}

/** The types of `count` questions of chapter `index`, offset by chapter so one-question shares still vary. */
export function typesFor(index: number, count: number, quantitative: boolean): Record<ExamQuestionType, number> {
  const mix = quantitative ? QUANT_MIX : MIX;
  const out: Record<ExamQuestionType, number> = { mcq: 0, short_answer: 0, worked_problem: 0 };
  for (let j = 0; j < count; j++) out[mix[(j + index) % mix.length]!] += 1;
  return out;
}

/** `n` questions as the fewest batches of at most `batchSize`, sized evenly (7 by 5 is 4 + 3, not 5 + 2). */
export function splitEvenly(n: number, batchSize: number): number[] {
  const batches = Math.ceil(n / batchSize);
  return Array.from({ length: batches }, (_, i) => Math.floor(n / batches) + (i < n % batches ? 1 : 0));
}
