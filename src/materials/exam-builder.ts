/**
 * Writes exactly `size` distinct exam questions. Chapters are written in parallel (bounded by
 * `concurrency`), the batches of one chapter one after another, each told every prompt the course
 * has asked so far (its quizzes and the exam's kept questions); a question that repeats one of them
 * is dropped. Gaps left by duplicates and failed batches are filled by later rounds; a slot
 * (chapter and type) that yields nothing new gives its share to other slots, so a thin chapter
 * cannot stall the exam.
 */
import pLimit from "p-limit";
import { AppError } from "../errors.ts";
import { nearDuplicate, promptStems } from "../llm/artefacts/checks.ts";
import {
  type ChapterSummary,
  type ExamQuestion,
  type ExamQuestionType,
  type UsageMeter,
  writeExamQuestions,
} from "../llm/artefacts.ts";
import type { Llm } from "../llm/types.ts";
import { chapterShares, splitEvenly, typesFor } from "./exam-plan.ts";

export interface ExamBuildInput {
  courseTitle: string;
  chapters: ChapterSummary[];
  size: number;
  model?: string;
  batchSize: number;
  concurrency: number;
  quantitative: (c: ChapterSummary) => boolean;
  /** Rounds of asking again for what is missing; a model's cost more than the extractive engine's. */
  rounds: number;
  meter?: UsageMeter;
}

const TYPES: ExamQuestionType[] = ["mcq", "short_answer", "worked_problem"];

interface Slot {
  chapter: number;
  type: ExamQuestionType;
  target: number;
  kept: ExamQuestion[];
  exhausted: boolean;
}

/**
 * The exam of `input.size` questions, or EXAM_SIZE_UNAVAILABLE naming a size the course does supply:
 * how many the chapters yield depends on how the size spreads over them, so the smaller count is
 * built again before it is promised (a few times at most) and asking for it then succeeds.
 */
export async function buildExamQuestions(llm: Llm, input: ExamBuildInput): Promise<ExamQuestion[]> {
  let size = input.size;
  for (let attempt = 1; ; attempt++) {
    const built = await buildUpTo(llm, { ...input, size });
    if (built.length >= size && size === input.size) return built;
    if (built.length >= size || built.length === 0 || attempt === MAX_SIZE_CHECKS) {
      const available = Math.min(size, built.length);
      throw new AppError(
        "EXAM_SIZE_UNAVAILABLE",
        `This course's chapters support ${available} distinct exam questions (none repeating a chapter quiz); ask for an exam_size of at most ${available}`,
        { exam_size: input.size, available },
      );
    }
    size = built.length;
  }
}

// Builds of a smaller size before the shortfall is reported; each is cheap for the built-in engine.
const MAX_SIZE_CHECKS = 3;

/** At most `input.size` questions, spread over the chapters; fewer when the chapters supply fewer. */
async function buildUpTo(llm: Llm, input: ExamBuildInput): Promise<ExamQuestion[]> {
  const { chapters, size } = input;
  const slots: Slot[] = chapterShares(chapters.length, size).flatMap((share, chapter) => {
    const mix = typesFor(chapter, share, input.quantitative(chapters[chapter]!));
    return TYPES.filter((type) => mix[type] > 0).map((type) => ({
      chapter,
      type,
      target: mix[type],
      kept: [],
      exhausted: false,
    }));
  });
  const quizPrompts = chapters.flatMap((c) => (c.quiz ?? []).map((q) => q.prompt));
  const asked = quizPrompts.map(promptStems);
  const askedPrompts = () => [...quizPrompts, ...slots.flatMap((s) => s.kept.map((q) => q.prompt))];
  const limit = pLimit(input.concurrency);
  const ordinals = new Map<number, number>();
  const nextOrdinal = (chapter: number) => {
    const n = ordinals.get(chapter) ?? 0;
    ordinals.set(chapter, n + 1);
    return n;
  };

  for (let round = 0; round < input.rounds; round++) {
    const wanted = slots.filter((s) => s.kept.length < s.target);
    if (wanted.length === 0) break;
    const answered = new Set<Slot>();
    const added = new Map<Slot, number>();
    const failures: unknown[] = [];
    let calls = 0;
    const keep = (slot: Slot, questions: ExamQuestion[]) => {
      answered.add(slot);
      for (const q of questions) {
        const stems = promptStems(q.prompt);
        if (q.type !== slot.type || slot.kept.length >= slot.target || asked.some((a) => nearDuplicate(a, stems)))
          continue;
        asked.push(stems);
        slot.kept.push(q);
        added.set(slot, (added.get(slot) ?? 0) + 1);
      }
    };
    const byChapter = Map.groupBy(wanted, (s) => s.chapter);
    await Promise.all(
      [...byChapter.entries()].map(([chapter, chapterSlots]) =>
        limit(async () => {
          for (const slot of chapterSlots) {
            for (const count of splitEvenly(slot.target - slot.kept.length, input.batchSize)) {
              calls++;
              try {
                keep(
                  slot,
                  await writeExamQuestions(llm, {
                    courseTitle: input.courseTitle,
                    chapter: chapters[chapter]!,
                    course: chapters,
                    count,
                    types: [slot.type],
                    avoidPrompts: askedPrompts(),
                    ordinal: nextOrdinal(chapter),
                    model: input.model,
                    meter: input.meter,
                  }),
                );
              } catch (err) {
                failures.push(err);
              }
            }
          }
        }),
      ),
    );
    if (failures.length === calls) throw failures[0];
    // A slot that answered but added nothing new is exhausted; its gap moves to other slots.
    for (const slot of answered) if (!added.has(slot)) slot.exhausted = true;
    reassignGaps(slots);
  }

  return slots
    .sort((a, b) => a.chapter - b.chapter || TYPES.indexOf(a.type) - TYPES.indexOf(b.type))
    .flatMap((s) => s.kept)
    .slice(0, size);
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
