/** Which engine and model made a material, and model unavailability as the spec's 503. */
import type { Sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { EXTRACTIVE_MODEL } from "../llm/artefacts.ts";
import { isLlmErrorCode } from "../llm/errors.ts";
import { type FallbackDeps, withFallback } from "../llm/fallback.ts";
import type { Engine, Llm } from "../llm/types.ts";

/** What building a material needs: the database and the model. */
export interface MaterialDeps {
  sql: Sql;
  llm: Llm;
}

export interface Maker {
  engine: Engine;
  model: string;
}

/** The engine and model that serve `model` (the default model when absent). */
export function makerOf(llm: Llm, model?: string | null): Maker {
  if (llm.engine === "extractive" || model === EXTRACTIVE_MODEL)
    return { engine: "extractive", model: EXTRACTIVE_MODEL };
  return { engine: llm.engine, model: model ?? llm.model };
}

/**
 * Exam, notes and flashcards answer 503 when the model cannot serve them (down, timing out, rate
 * limiting, refusing, or replying with unusable output after re-asks), keeping the LLM layer's
 * code and message as the structured reason so a client can tell these cases apart.
 */
export function asUnavailable(err: unknown): unknown {
  if (!isModelFailure(err)) return err;
  const code = isLlmErrorCode(err.code) ? err.code : "LLM_FAILED";
  return new AppError(
    code,
    `The model is unavailable: ${err.message}`,
    {
      reason: { code: err.code, message: err.message },
      ...(err.details === undefined ? {} : { upstream: err.details }),
    },
    undefined,
    "materials",
  );
}

/** A failure of the model call itself (the LLM layer's errors), not of our input or storage. */
export const isModelFailure = (err: unknown): err is AppError =>
  err instanceof AppError && (isLlmErrorCode(err.code) || err.status >= 500);

/**
 * A material written for `maker` by `write`, or, when the model fails it after its re-asks and
 * LLM_FALLBACK is `extractive`, by the built-in engine; the engine returned is the one that wrote
 * it. A model failure that stands is the materials' 503.
 */
export async function writeMaterial<T>(
  svc: MaterialDeps & FallbackDeps,
  maker: Maker,
  what: Record<string, unknown>,
  write: (maker: Maker) => Promise<T>,
): Promise<{ value: T; engine: Engine }> {
  const extractive: Maker = { engine: "extractive", model: EXTRACTIVE_MODEL };
  try {
    const made = await withFallback(
      svc,
      what,
      () => write(maker),
      () => write(extractive),
    );
    return { value: made.value, engine: made.generatedBy === "extractive" ? "extractive" : maker.engine };
  } catch (err) {
    throw asUnavailable(err);
  }
}
