import { usesExtractive } from "../models.ts";
import { render, templates } from "../prompts/index.ts";
import { examBatchSchema, type ExamQuestion, type ExamQuestionType } from "../schemas.ts";
import type { Llm } from "../types.ts";
import { examProblems } from "./checks.ts";
import { extractive, type ArtefactOptions, type ChapterSummary } from "./common.ts";

export interface ExamQuestionsInput extends ArtefactOptions {
  courseTitle: string;
  chapter: ChapterSummary;
  count: number;
  types: ExamQuestionType[];
  /** Prompts already used (other batches), not to be repeated. */
  avoidPrompts?: string[];
}

const CONTENT_LIMIT = 10_000;
const AVOID_LISTED = 30;

/** `count` questions about one chapter, of the requested types (fewer only from a thin extractive source). */
export async function writeExamQuestions(llm: Llm, input: ExamQuestionsInput): Promise<ExamQuestion[]> {
  const types: ExamQuestionType[] = input.types.length > 0 ? [...new Set(input.types)] : ["mcq"];
  if (usesExtractive(llm, input.model)) return extractive(input.meter, (e) => e.extractiveExamQuestions({ ...input, types }));
  const avoid = (input.avoidPrompts ?? []).slice(-AVOID_LISTED);
  const prompt = render(templates.exam, {
    courseTitle: input.courseTitle,
    chapterTitle: input.chapter.title,
    keyConcepts: input.chapter.key_concepts.join("; "),
    content: input.chapter.content.slice(0, CONTENT_LIMIT),
    count: input.count,
    types: types.join(", "),
    avoid: avoid.length > 0 ? `Do not repeat these questions:\n${avoid.map((p) => `- ${p}`).join("\n")}` : "",
  });
  const reply = await llm.generateObject(examBatchSchema(input.count, types), prompt, {
    task: "exam",
    model: input.model,
    meter: input.meter,
    refine: (r) => examProblems(r.questions as ExamQuestion[]),
  });
  return reply.questions as ExamQuestion[];
}
