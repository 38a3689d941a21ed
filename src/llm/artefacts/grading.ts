import { promptWithin } from "../context-budget.ts";
import { render, templates } from "../prompts/index.ts";
import { type RubricGrade, rubricGradeSchema } from "../schemas.ts";
import type { Llm } from "../types.ts";
import type { ArtefactOptions } from "./common.ts";

export interface RubricGradeInput extends ArtefactOptions {
  question: string;
  /** The exam's model answer. */
  reference: string;
  rubric: string[];
  answer: string;
}

// A short answer longer than this is not a short answer; the rest would only crowd the context.
const ANSWER_LIMIT = 4_000;

/** A model marks one short answer against its rubric: one mark per point (schema-checked, re-asked), and feedback. */
export async function gradeWithModel(llm: Llm, input: RubricGradeInput): Promise<RubricGrade> {
  const frame = (answer: string) =>
    render(templates.grade, {
      question: input.question,
      reference: input.reference,
      pointCount: input.rubric.length,
      rubric: input.rubric.map((p, i) => `${i + 1}. ${p}`).join("\n"),
      answer,
    });
  const prompt = promptWithin(llm, "grading", frame, input.answer, ANSWER_LIMIT);
  return llm.generateObject(rubricGradeSchema(input.rubric.length), prompt, {
    task: "grading",
    model: input.model,
    meter: input.meter,
  });
}
