import { usesExtractive } from "../models.ts";
import { render, templates } from "../prompts/index.ts";
import { type StudyGuide, StudyGuideSchema } from "../schemas.ts";
import type { Llm } from "../types.ts";
import type { ChapterSummary } from "./chapter-summary.ts";
import { type ArtefactOptions, chaptersWithin, extractive } from "./common.ts";
import { guideProblem, openingOnBody } from "./item-checks.ts";

export interface StudyGuideInput extends ArtefactOptions {
  courseTitle: string;
  chapters: ChapterSummary[];
}

/** A study guide that opens with what the document is about (item-checks.ts), whichever engine writes it. */
export async function writeStudyGuide(llm: Llm, input: StudyGuideInput): Promise<StudyGuide> {
  return openingOnBody(await draftStudyGuide(llm, input));
}

async function draftStudyGuide(llm: Llm, input: StudyGuideInput): Promise<StudyGuide> {
  if (usesExtractive(llm, input.model)) return extractive(llm, "extractiveStudyGuide", input);
  const prompt = chaptersWithin(
    llm,
    "study_guide",
    (chapters) => render(templates.studyGuide, { courseTitle: input.courseTitle, chapters }),
    input.chapters,
  );
  // A guide opening on front or back matter is re-asked once; then its opening sections are left out.
  let asked = false;
  return llm.generateObject(StudyGuideSchema, prompt, {
    task: "study_guide",
    model: input.model,
    meter: input.meter,
    refine: (g) => {
      const problem = asked ? null : guideProblem(g);
      asked ||= problem !== null;
      return problem ? [`/sections/0: ${problem}`] : [];
    },
  });
}
