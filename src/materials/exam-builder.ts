/**
 * Writes exactly `size` distinct exam questions. The built-in engine's are chosen from a pool of
 * every question the chapters supply. A model's are written to the size: chapters in parallel
 * (bounded by `concurrency`), the batches of one chapter one after another, each told every prompt
 * the course has asked so far (its quizzes and the exam's kept questions); a question that repeats
 * one of them is dropped. Gaps left by duplicates and failed batches are filled by later rounds; a slot
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
import { promptKind } from "../llm/extractive/prompt-kinds.ts";
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
  /** Rounds of asking a model again for what is missing. */
  rounds: number;
  /** The built-in engine: every chapter's questions at once, chosen from (a model writes to the size). */
  pooled: boolean;
  meter?: UsageMeter;
}

const TYPES: ExamQuestionType[] = ["mcq", "short_answer", "worked_problem"];

/** The fewest questions an exam may have (the exam route's least exam_size). */
const MIN_EXAM_SIZE = 10;

interface Slot {
  chapter: number;
  type: ExamQuestionType;
  target: number;
  kept: ExamQuestion[];
  exhausted: boolean;
}

/**
 * The exam of `input.size` questions, or EXAM_SIZE_UNAVAILABLE naming the size the course supplies.
 * The built-in engine's questions form a pool built once whatever the size (every chapter's every
 * question, none repeating a quiz or another chapter), so the size it names is one asking for it
 * then gets; a model writes to the size asked, and names how many it wrote.
 */
export async function buildExamQuestions(llm: Llm, input: ExamBuildInput): Promise<ExamQuestion[]> {
  const built = input.pooled ? chooseFrom(await examPool(llm, input), input) : await buildUpTo(llm, input);
  if (built.length >= input.size) return built;
  // A source too short for the smallest exam gets no padded one: the refusal says so.
  if (built.length < MIN_EXAM_SIZE)
    throw new AppError(
      "EXAM_SIZE_UNAVAILABLE",
      `This course's chapters support only ${built.length} distinct exam questions (none repeating a chapter quiz), fewer than the ${MIN_EXAM_SIZE} of the smallest exam: its source is too short for an exam`,
      { exam_size: input.size, available: built.length },
    );
  throw new AppError(
    "EXAM_SIZE_UNAVAILABLE",
    `This course's chapters support ${built.length} distinct exam questions (none repeating a chapter quiz); ask for an exam_size of at most ${built.length}`,
    { exam_size: input.size, available: built.length },
  );
}

/** Every question each chapter supplies, by type, none repeating a quiz or an earlier chapter's question. */
async function examPool(llm: Llm, input: ExamBuildInput): Promise<Map<ExamQuestionType, ExamQuestion[]>[]> {
  const { chapters } = input;
  const quizPrompts = chapters.flatMap((c) => (c.quiz ?? []).map((q) => q.prompt));
  const limit = pLimit(input.concurrency);
  const written = await Promise.all(
    chapters.map((chapter) =>
      limit(() =>
        writeExamQuestions(llm, {
          courseTitle: input.courseTitle,
          chapter,
          course: chapters,
          count: Number.POSITIVE_INFINITY,
          types: TYPES,
          avoidPrompts: quizPrompts,
          model: input.model,
          meter: input.meter,
        }),
      ),
    ),
  );
  const asked = quizPrompts.map(promptStems);
  return written.map((questions) => {
    const kept = questions.filter((q) => {
      const stems = promptStems(q.prompt);
      if (asked.some((a) => nearDuplicate(a, stems))) return false;
      asked.push(stems);
      return true;
    });
    return new Map(TYPES.map((type) => [type, kept.filter((q) => q.type === type)]));
  });
}

/**
 * A chapter's questions with its fill-in-the-blank ones after every other kind, so an exam takes
 * them only when the chapter has nothing else left: a manual's definitional sentences made exams
 * of mostly blanks (R-intro's 75%), where its quizzes keep them to 40%.
 */
const blanksLast = (questions: ExamQuestion[]) =>
  [...questions].sort((a, b) => Number(promptKind(a.prompt) === "blank") - Number(promptKind(b.prompt) === "blank"));

/**
 * `input.size` questions of the pool, or all of it when it holds fewer: each chapter's share in the
 * planned type mix, a type the chapter lacks made up from its other types, then what a thin chapter
 * cannot give taken from the others in turn; fill-in-the-blank questions last of their type.
 */
export function chooseFrom(
  pool: Map<ExamQuestionType, ExamQuestion[]>[],
  input: Pick<ExamBuildInput, "size" | "chapters" | "quantitative">,
): ExamQuestion[] {
  const left = pool.map((byType) => new Map(TYPES.map((type) => [type, blanksLast(byType.get(type) ?? [])])));
  const chosen: ExamQuestion[][] = pool.map(() => []);
  const take = (chapter: number, type: ExamQuestionType) => {
    const q = left[chapter]!.get(type)!.shift();
    if (q) chosen[chapter]!.push(q);
    return q !== undefined;
  };
  const takeAny = (chapter: number) => TYPES.some((type) => take(chapter, type));
  let short = 0;
  chapterShares(pool.length, input.size).forEach((share, chapter) => {
    const mix = typesFor(chapter, share, input.quantitative(input.chapters[chapter]!));
    for (const type of TYPES)
      for (let k = 0; k < mix[type]; k++) if (!take(chapter, type) && !takeAny(chapter)) short += 1;
  });
  for (let progress = true; short > 0 && progress; ) {
    progress = false;
    for (let chapter = 0; chapter < pool.length && short > 0; chapter++)
      if (takeAny(chapter)) {
        short -= 1;
        progress = true;
      }
  }
  return chosen.flatMap((questions) => questions.sort((a, b) => TYPES.indexOf(a.type) - TYPES.indexOf(b.type)));
}

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
