/** Which grader marks free-text answers: the model that wrote the exam, or the built-in rubric coverage. */
import { EXTRACTIVE_MODEL, gradeWithModel } from "../llm/artefacts.ts";
import type { Llm } from "../llm/types.ts";
import { makerOf } from "../materials/engine.ts";
import type { RubricGrader } from "./grading.ts";
import { markAgainstRubric } from "./rubric-coverage.ts";

export const builtinGrader: RubricGrader = {
  engine: "extractive",
  model: EXTRACTIVE_MODEL,
  mark: async ({ question, rubric, answer }) => markAgainstRubric(question, rubric, answer),
};

/** A model marks each answer (prompts/grade.v1.md); its reply has one mark per rubric point, in order. */
function modelGrader(llm: Llm, model: string): RubricGrader {
  return {
    engine: llm.engine,
    model,
    async mark(input) {
      const reply = await gradeWithModel(llm, { ...input, model });
      return {
        points: reply.points.map((p, i) => ({ point: input.rubric[i]!, met: p.met, comment: p.comment })),
        feedback: reply.feedback,
      };
    },
  };
}

/**
 * An exam written by a model is marked by that same model (the rubric was written for it); one the
 * built-in engine wrote, or any exam on a server without a model provider, by rubric coverage.
 */
export function graderFor(llm: Llm, examModel: string): RubricGrader {
  const maker = makerOf(llm, examModel);
  return maker.engine === "extractive" ? builtinGrader : modelGrader(llm, maker.model);
}
