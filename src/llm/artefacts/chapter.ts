import { llmError } from "../errors.ts";
import { usesExtractive } from "../models.ts";
import { bulletList, courseGoal, formatPassages, render, templates } from "../prompts/index.ts";
import { NO_MODEL_MESSAGE } from "../providers/extractive.ts";
import { ChapterSchema, type ChapterDraft } from "../schemas.ts";
import type { Llm, Passage } from "../types.ts";
import { extractive, knownCitations, type ArtefactOptions } from "./common.ts";
import { quizProblems } from "./checks.ts";

export interface ChapterInput extends ArtefactOptions {
  courseTitle: string;
  chapterTitle: string;
  objectives: string[];
  learningGoal?: string;
  passages: Passage[];
}

/** One chapter: markdown content, key concepts, a quiz, and the ids of the passages it used. */
export async function writeChapter(llm: Llm, input: ChapterInput): Promise<ChapterDraft> {
  if (usesExtractive(llm, input.model)) {
    if (input.passages.length === 0) throw llmError("LLM_UNAVAILABLE", NO_MODEL_MESSAGE);
    return extractive(input.meter, (e) => e.extractiveChapter(input));
  }
  const prompt = render(templates.chapter, {
    courseTitle: input.courseTitle,
    chapterTitle: input.chapterTitle,
    objectives: bulletList(input.objectives),
    goal: courseGoal(input.learningGoal),
    passages: formatPassages(input.passages),
  });
  const draft = await llm.generateObject(ChapterSchema, prompt, {
    task: "chapter",
    model: input.model,
    meter: input.meter,
    refine: (d) => quizProblems(d.quiz.questions),
  });
  return { ...draft, citations: knownCitations(draft.citations, input.passages) };
}
