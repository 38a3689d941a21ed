import { usesExtractive } from "../models.ts";
import { render, templates } from "../prompts/index.ts";
import { type StudyGuide, StudyGuideSchema } from "../schemas.ts";
import type { Llm } from "../types.ts";
import type { ChapterSummary } from "./chapter-summary.ts";
import { type ArtefactOptions, extractive, formatChapters, perChapterBudget } from "./common.ts";

export interface StudyGuideInput extends ArtefactOptions {
  courseTitle: string;
  chapters: ChapterSummary[];
}

export async function writeStudyGuide(llm: Llm, input: StudyGuideInput): Promise<StudyGuide> {
  if (usesExtractive(llm, input.model)) return extractive(input.meter, "extractiveStudyGuide", input);
  const prompt = render(templates.studyGuide, {
    courseTitle: input.courseTitle,
    chapters: formatChapters(input.chapters, perChapterBudget(input.chapters.length)),
  });
  return llm.generateObject(StudyGuideSchema, prompt, { task: "study_guide", model: input.model, meter: input.meter });
}
