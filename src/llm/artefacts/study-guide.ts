import { sourceBudget } from "../context-budget.ts";
import { usesExtractive } from "../models.ts";
import { render, templates } from "../prompts/index.ts";
import { type StudyGuide, StudyGuideSchema } from "../schemas.ts";
import type { Llm } from "../types.ts";
import type { ChapterSummary } from "./chapter-summary.ts";
import { type ArtefactOptions, extractive, formatChapters, PROMPT_CHAPTERS_CHARS, perChapterBudget } from "./common.ts";

export interface StudyGuideInput extends ArtefactOptions {
  courseTitle: string;
  chapters: ChapterSummary[];
}

export async function writeStudyGuide(llm: Llm, input: StudyGuideInput): Promise<StudyGuide> {
  if (usesExtractive(llm, input.model)) return extractive(input.meter, "extractiveStudyGuide", input);
  const frame = (perChapter: number) =>
    render(templates.studyGuide, {
      courseTitle: input.courseTitle,
      chapters: formatChapters(input.chapters, perChapter),
    });
  // The chapters' text in what the context window leaves beside the guide.
  const room = Math.min(PROMPT_CHAPTERS_CHARS, sourceBudget(llm, "study_guide", frame(0)));
  const prompt = frame(perChapterBudget(input.chapters.length, room));
  return llm.generateObject(StudyGuideSchema, prompt, { task: "study_guide", model: input.model, meter: input.meter });
}
