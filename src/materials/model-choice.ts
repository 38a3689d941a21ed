/** The model a material is generated with, which is also part of its cache key. */

import type { CourseHead } from "../courses/read.ts";
import { AppError } from "../errors.ts";
import { EXTRACTIVE_MODEL, resolveModelKey } from "../llm/artefacts.ts";
import type { Llm } from "../llm/types.ts";
import { asUnavailable } from "./engine.ts";

/**
 * `model_key` when given (422 when unknown). Otherwise the model that generated the course, as the
 * spec says, unless that was the extractive fallback or the model is no longer offered: then the
 * server's default model.
 */
export async function chooseModel(llm: Llm, course: CourseHead, modelKey?: string | null): Promise<string> {
  try {
    if (modelKey) return await resolveModelKey(llm, modelKey);
    const own = course.model;
    if (!own || own === EXTRACTIVE_MODEL || own === llm.model || llm.engine === "extractive") return llm.model;
    return await resolveModelKey(llm, own).catch((err: unknown) => {
      if (err instanceof AppError && err.status === 422) return llm.model;
      throw err;
    });
  } catch (err) {
    throw asUnavailable(err);
  }
}
