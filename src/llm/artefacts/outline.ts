import { llmError } from "../errors.ts";
import { usesExtractive } from "../models.ts";
import { courseGoal, formatPassages, render, templates } from "../prompts/index.ts";
import { NO_MODEL_MESSAGE } from "../providers/extractive.ts";
import { outlineSchema, type Outline } from "../schemas.ts";
import type { Llm, Passage } from "../types.ts";
import { extractive, slugify, type ArtefactOptions } from "./common.ts";

export interface OutlineInput extends ArtefactOptions {
  topic?: string;
  learningGoal?: string;
  numChapters: number;
  passages: Passage[];
}

/** A course plan with exactly `numChapters` chapters; without a topic, titled after the sources' dominant theme. */
export async function writeOutline(llm: Llm, input: OutlineInput): Promise<Outline> {
  if (usesExtractive(llm, input.model)) {
    // Nothing to extract from: a topic-only course needs a real model.
    if (input.passages.length === 0) throw llmError("LLM_UNAVAILABLE", NO_MODEL_MESSAGE);
    const outline = await extractive(input.meter, (e) => e.extractiveOutline(input));
    return { ...outline, slug: slugify(outline.title) };
  }
  const topic = input.topic?.trim();
  const prompt = render(templates.outline, {
    numChapters: input.numChapters,
    topic: topic || "(not given: infer it from the dominant theme of the source passages)",
    titleHint: topic ? "" : " naming the dominant theme of the passages",
    goal: courseGoal(input.learningGoal),
    passages: formatPassages(input.passages, undefined, { evenShare: true }),
  });
  const outline = await llm.generateObject(outlineSchema(input.numChapters), prompt, {
    task: "outline",
    model: input.model,
    meter: input.meter,
  });
  return { ...outline, slug: slugify(outline.title) };
}
