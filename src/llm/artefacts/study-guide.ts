import { usesExtractive } from "../models.ts";
import { render, templates } from "../prompts/index.ts";
import { StudyGuideSchema, type StudyGuide } from "../schemas.ts";
import type { Llm } from "../types.ts";
import { extractive, formatChapters, perChapterBudget, type ArtefactOptions } from "./common.ts";
import type { ChapterSummary } from "./chapter-summary.ts";

export interface StudyGuideInput extends ArtefactOptions {
  courseTitle: string;
  chapters: ChapterSummary[];
}

export async function writeStudyGuide(llm: Llm, input: StudyGuideInput): Promise<StudyGuide> {
  if (usesExtractive(llm, input.model)) return extractive(input.meter, (e) => e.extractiveStudyGuide(input));
  const prompt = render(templates.studyGuide, {
    courseTitle: input.courseTitle,
    chapters: formatChapters(input.chapters, perChapterBudget(input.chapters.length)),
  });
  return llm.generateObject(StudyGuideSchema, prompt, { task: "study_guide", model: input.model, meter: input.meter });
}
