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
  /**
   * Set when the passages are the chapter's own sections, in reading order: the heading-path depth
   * of those sections' headings. The extractive engine then condenses them rather than picking
   * sentences by relevance.
   */
  sectionDepth?: number;
  /** Every chapter title of the course in order, and this chapter's index, so chapters neither overlap nor skip. */
  courseOutline?: string[];
  chapterIndex?: number;
}

/** One chapter: markdown content, key concepts, a quiz, and the ids of the passages it used. */
export async function writeChapter(llm: Llm, input: ChapterInput): Promise<ChapterDraft> {
  if (usesExtractive(llm, input.model)) {
    if (input.passages.length === 0) throw llmError("LLM_UNAVAILABLE", NO_MODEL_MESSAGE);
    return extractive(input.meter, (e) => (input.sectionDepth === undefined ? e.extractiveChapter(input) : e.condensedChapter({ ...input, sectionDepth: input.sectionDepth })));
  }
  const outline = input.courseOutline ?? [input.chapterTitle];
  const index = input.chapterIndex ?? 0;
  const own = input.sectionDepth !== undefined;
  const prompt = render(templates.chapter, {
    courseTitle: input.courseTitle,
    outline: outline.map((t, i) => `${i + 1}. ${t}${i === index ? "  <- this chapter" : ""}`).join("\n"),
    chapterNumber: index + 1,
    chapterTitle: input.chapterTitle,
    objectives: bulletList(input.objectives),
    goal: courseGoal(input.learningGoal),
    passagesIntro: own ? "This chapter's own sections of the sources, in reading order, each with an id:" : "Source passages, each with an id:",
    grounding: own
      ? "teach these sections in their order, every statement grounded in them"
      : "base it on the passages above where they are relevant",
    // The chapter's own sections are its whole material: every part of them gets a share of the budget.
    passages: formatPassages(input.passages, undefined, { evenShare: own }),
  });
  const draft = await llm.generateObject(ChapterSchema, prompt, {
    task: "chapter",
    model: input.model,
    meter: input.meter,
    refine: (d) => quizProblems(d.quiz.questions),
  });
  return { ...draft, citations: knownCitations(draft.citations, input.passages) };
}
