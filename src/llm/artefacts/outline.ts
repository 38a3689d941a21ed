import { slugify } from "../../util.ts";
import { sourceBudget } from "../context-budget.ts";
import { llmError } from "../errors.ts";
import { usesExtractive } from "../models.ts";
import { courseGoal, formatPassages, render, templates } from "../prompts/index.ts";
import { NO_MODEL_MESSAGE } from "../providers/extractive.ts";
import { type Outline, outlineSchema } from "../schemas.ts";
import type { Llm, Passage } from "../types.ts";
import { ownSectionsToFit } from "./chapter.ts";
import { type ArtefactOptions, extractive } from "./common.ts";
import { condenseToFit, shownLength } from "./condense.ts";

/** A chapter whose sections are already chosen: the outline titles it and sets its objectives. */
export interface FixedChapter {
  /** A title covering its sections (their own headings). */
  title: string;
  sections: string[];
  passages: Passage[];
}

export interface OutlineInput extends ArtefactOptions {
  topic?: string;
  learningGoal?: string;
  numChapters: number;
  /** A sample of the sources; with fixed `chapters`, a model reads their passages (the whole sources) instead. */
  passages: Passage[];
  /** The sources' heading tree, shown to the model so the plan follows the documents' own structure. */
  structure?: string;
  /** Chapters fixed by the sources' sections, in order (as many as numChapters). */
  chapters?: FixedChapter[];
}

function structureBlock(input: OutlineInput): string {
  const parts: string[] = [];
  if (input.structure) parts.push(`\nThe sources' headings:\n${input.structure}\n`);
  if (input.chapters) {
    const list = input.chapters.map((c, i) => `${i + 1}. ${c.sections.join("; ")}`).join("\n");
    parts.push(`\nThe chapters are fixed: each covers these sections of the sources, in this order:\n${list}\n`);
  }
  return parts.join("");
}

/** A course plan with exactly `numChapters` chapters; without a topic, titled after the sources' dominant theme. */
export async function writeOutline(llm: Llm, input: OutlineInput): Promise<Outline> {
  if (usesExtractive(llm, input.model)) {
    // Nothing to extract from: a topic-only course needs a real model.
    if (input.passages.length === 0) throw llmError("LLM_UNAVAILABLE", NO_MODEL_MESSAGE);
    const outline = await extractive(llm, "extractiveOutline", input);
    return { ...outline, slug: slugify(outline.title) };
  }
  const topic = input.topic?.trim();
  // Fixed chapters hold the whole of the sources: the plan reads all of it, condensed to fit, each
  // chapter's sections first as that chapter will condense them (its notes are then made).
  const material: Passage[] = [];
  for (const c of input.chapters ?? []) material.push(...(await ownSectionsToFit(llm, c.passages, input)));
  if (!input.chapters) material.push(...input.passages);
  const frame = (passages: string) =>
    render(templates.outline, {
      numChapters: input.numChapters,
      topic: topic || "(not given: infer it from the dominant theme of the source passages)",
      titleHint: topic ? "" : " naming the dominant theme of the passages",
      goal: courseGoal(input.learningGoal),
      structure: structureBlock(input),
      chapterHint: input.chapters
        ? "; chapter i covers the sections listed for it above: title it after them (a chapter of one section takes that section's heading), and set objectives on what they teach"
        : "",
      passagesIntro: input.chapters
        ? "The whole of the sources in reading order, condensed where they are long"
        : "Source passages, sampled evenly over the whole of the sources",
      passages,
    });
  const budget = sourceBudget(llm, "outline", frame(""));
  const shown = await condenseToFit(llm, material, {
    budget,
    where: `from the sources of a course${topic ? ` on "${topic}"` : ""}, read to plan its chapters`,
    meter: input.meter,
    model: input.model,
    handles: false,
  });
  // Even shares when condensing could not fit them all, so the sample still reaches the sources' end.
  const prompt = frame(formatPassages(shown, budget, { evenShare: shownLength(shown, false) > budget }));
  const outline = await llm.generateObject(outlineSchema(input.numChapters), prompt, {
    task: "outline",
    model: input.model,
    meter: input.meter,
  });
  return { ...outline, slug: slugify(outline.title) };
}
