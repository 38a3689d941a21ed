/**
 * Writes exactly `size` distinct exam questions: the plan's batches run in parallel (bounded by
 * `concurrency`); duplicates and failed batches leave gaps that later rounds fill, asking only for
 * what is missing and naming the prompts already used. A slot (chapter and type) that yields
 * nothing new gives its share to other slots, so a thin chapter cannot stall the exam.
 */
import pLimit from "p-limit";
import { AppError } from "../errors.ts";
import { writeExamQuestions, type ChapterSummary, type ExamQuestion, type ExamQuestionType, type UsageMeter } from "../llm/artefacts.ts";
import type { Llm } from "../llm/types.ts";
import { chapterShares, focusChapter, splitEvenly, typesFor } from "./exam-plan.ts";

export interface ExamBuildInput {
  courseTitle: string;
  chapters: ChapterSummary[];
  size: number;
  model?: string;
  batchSize: number;
  concurrency: number;
  quantitative: (c: ChapterSummary) => boolean;
  meter?: UsageMeter;
}

const TYPES: ExamQuestionType[] = ["mcq", "short_answer", "worked_problem"];
const MAX_ROUNDS = 4;

const promptKey = (prompt: string) => prompt.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

interface Slot {
  chapter: number;
  type: ExamQuestionType;
  target: number;
  kept: ExamQuestion[];
  exhausted: boolean;
}

export async function buildExamQuestions(llm: Llm, input: ExamBuildInput): Promise<ExamQuestion[]> {
  const { chapters, size } = input;
  const slots: Slot[] = chapterShares(chapters.length, size).flatMap((share, chapter) => {
    const mix = typesFor(chapter, share, input.quantitative(chapters[chapter]!));
    return TYPES.filter((type) => mix[type] > 0).map((type) => ({ chapter, type, target: mix[type], kept: [], exhausted: false }));
  });
  const seen = new Set<string>();
  const limit = pLimit(input.concurrency);
  const ordinals = new Map<number, number>();
  const nextOrdinal = (chapter: number) => {
    const n = ordinals.get(chapter) ?? 0;
    ordinals.set(chapter, n + 1);
    return n;
  };

  for (let round = 0; round < MAX_ROUNDS; round++) {
    const wanted = slots.filter((s) => s.kept.length < s.target);
    if (wanted.length === 0) break;
    const batches = wanted.flatMap((slot) =>
      splitEvenly(slot.target - slot.kept.length, input.batchSize).map((count) => ({ slot, count, ordinal: nextOrdinal(slot.chapter) })),
    );
    const results = await Promise.allSettled(
      batches.map(({ slot, count, ordinal }) =>
        limit(() =>
          writeExamQuestions(llm, {
            courseTitle: input.courseTitle,
            // Each batch leads with other key concepts, so parallel batches of a chapter differ.
            chapter: focusChapter(chapters[slot.chapter]!, ordinal),
            count,
            types: [slot.type],
            avoidPrompts: round === 0 ? undefined : keptPrompts(slots, slot.chapter),
            model: input.model,
            meter: input.meter,
          }),
        ),
      ),
    );
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failures.length === results.length) throw failures[0]!.reason;

    const answered = new Set<Slot>();
    const added = new Map<Slot, number>();
    for (const [i, result] of results.entries()) {
      if (result.status === "rejected") continue;
      const { slot } = batches[i]!;
      answered.add(slot);
      for (const q of result.value) {
        const key = promptKey(q.prompt);
        if (q.type !== slot.type || slot.kept.length >= slot.target || seen.has(key)) continue;
        seen.add(key);
        slot.kept.push(q);
        added.set(slot, (added.get(slot) ?? 0) + 1);
      }
    }
    // A slot that answered but added nothing new is exhausted; its gap moves to other slots.
    for (const slot of answered) if (!added.has(slot)) slot.exhausted = true;
    reassignGaps(slots);
  }

  const total = slots.reduce((n, s) => n + s.kept.length, 0);
  if (total < size) {
    throw new AppError(
      422,
      "EXAM_SIZE_UNAVAILABLE",
      `Only ${total} distinct questions could be written from this course's chapters; ask for a smaller exam_size`,
      { exam_size: size, available: total },
    );
  }
  return slots
    .sort((a, b) => a.chapter - b.chapter || TYPES.indexOf(a.type) - TYPES.indexOf(b.type))
    .flatMap((s) => s.kept)
    .slice(0, size);
}

function keptPrompts(slots: Slot[], chapter: number): string[] {
  return slots.filter((s) => s.chapter === chapter).flatMap((s) => s.kept.map((q) => q.prompt));
}

/** Moves the unfilled part of exhausted slots to live ones: same chapter first, then the others in turn. */
function reassignGaps(slots: Slot[]): void {
  for (const slot of slots) {
    let gap = slot.target - slot.kept.length;
    if (!slot.exhausted || gap <= 0) continue;
    slot.target = slot.kept.length;
    const live = slots
      .filter((s) => !s.exhausted)
      .sort((a, b) => Number(b.chapter === slot.chapter) - Number(a.chapter === slot.chapter) || a.chapter - b.chapter);
    for (let i = 0; gap > 0 && live.length > 0; i++, gap--) live[i % live.length]!.target += 1;
  }
}
