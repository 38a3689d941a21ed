import { promptWithin } from "../context-budget.ts";
import { usesExtractive } from "../models.ts";
import { render, templates } from "../prompts/index.ts";
import { type ExamQuestion, type ExamQuestionType, examBatchSchema } from "../schemas.ts";
import type { Llm } from "../types.ts";
import type { ChapterSummary } from "./chapter-summary.ts";
import { examProblems, itemProblems, passing, tellOnce } from "./checks.ts";
import { type ArtefactOptions, extractive } from "./common.ts";

export interface ExamQuestionsInput extends ArtefactOptions {
  courseTitle: string;
  chapter: ChapterSummary;
  /** Every chapter of the course (the extractive engine draws distractors from all of them). */
  course?: ChapterSummary[];
  count: number;
  types: ExamQuestionType[];
  /** Prompts already asked (the quizzes, other batches): not to be repeated. */
  avoidPrompts?: string[];
  /** Which batch of this chapter this is, so parallel batches lead with different key concepts. */
  ordinal?: number;
}

const CONTENT_LIMIT = 10_000;
const AVOID_LISTED = 30;

/** The chapter as one batch sees it: key concepts rotated so batches of one chapter lead with different ones. */
export function focusChapter(chapter: ChapterSummary, ordinal: number): ChapterSummary {
  const k = chapter.key_concepts;
  if (k.length < 2) return chapter;
  const shift = ordinal % k.length;
  return { ...chapter, key_concepts: [...k.slice(shift), ...k.slice(0, shift)] };
}

/**
 * `count` questions about one chapter, of the requested types (fewer only from a thin extractive
 * source). A model's question that names its own answer is re-asked; one that fails the item checks
 * is re-asked once, then left out; one that repeats a question already asked is dropped by the exam
 * builder, which asks again for what is missing.
 */
export async function writeExamQuestions(llm: Llm, input: ExamQuestionsInput): Promise<ExamQuestion[]> {
  const types: ExamQuestionType[] = input.types.length > 0 ? [...new Set(input.types)] : ["mcq"];
  if (usesExtractive(llm, input.model)) return extractive(llm, "extractiveExamQuestions", { ...input, types });
  const asked = input.avoidPrompts ?? [];
  const listed = asked.slice(-AVOID_LISTED);
  const chapter = focusChapter(input.chapter, input.ordinal ?? 0);
  const frame = (content: string) =>
    render(templates.exam, {
      courseTitle: input.courseTitle,
      chapterTitle: chapter.title,
      keyConcepts: chapter.key_concepts.join("; "),
      content,
      count: input.count,
      types: types.join(", "),
      avoid:
        listed.length > 0
          ? `Already asked in this course (do not repeat or rephrase these):\n${listed.map((p) => `- ${p}`).join("\n")}`
          : "",
    });
  const prompt = promptWithin(llm, "exam", frame, chapter.content, CONTENT_LIMIT);
  const itemChecks = tellOnce((questions: ExamQuestion[]) => itemProblems(questions, (i) => `/questions/${i}`));
  const reply = await llm.generateObject(examBatchSchema(input.count, types), prompt, {
    task: "exam",
    model: input.model,
    meter: input.meter,
    refine: (r) => [...examProblems(r.questions as ExamQuestion[]), ...itemChecks(r.questions as ExamQuestion[])],
  });
  // What still fails the item checks is left out; the exam builder asks again for what is missing.
  return passing(reply.questions as ExamQuestion[]);
}
