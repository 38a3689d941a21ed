/**
 * LLM_FALLBACK: what happens when the model fails a chapter or a material after its re-asks. Off
 * (the default), the failure stands and names what to do; `extractive`, the operator has chosen
 * to have that one piece built by the built-in engine instead, and it is marked as such.
 */
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { isLlmErrorCode } from "./errors.ts";
import type { Llm } from "./types.ts";

export type FallbackMode = "off" | "extractive";

/** Who wrote a chapter or material: the configured model, or the built-in engine standing in for it. */
export type GeneratedBy = "model" | "extractive";

/** What a stored record's engine says about who wrote it. */
export const generatedBy = (engine: string | null): GeneratedBy => (engine === "extractive" ? "extractive" : "model");

export interface FallbackDeps {
  llm: Llm;
  log: Logger;
  cfg: { llmFallback: FallbackMode };
}

/**
 * `viaModel`, or, when it fails with a model failure and LLM_FALLBACK is `extractive`, `viaExtractive`.
 * When the built-in engine cannot build it either (a topic chapter with no passages), the model's
 * failure is what the caller sees.
 */
export async function withFallback<T>(
  svc: FallbackDeps,
  what: Record<string, unknown>,
  viaModel: () => Promise<T>,
  viaExtractive: () => Promise<T>,
): Promise<{ value: T; generatedBy: GeneratedBy }> {
  try {
    return { value: await viaModel(), generatedBy: "model" };
  } catch (err) {
    const modelFailure = err instanceof AppError && isLlmErrorCode(err.code);
    if (!modelFailure || svc.cfg.llmFallback !== "extractive" || svc.llm.engine === "extractive") throw err;
    svc.log.warn("the model failed; built with the extractive engine (LLM_FALLBACK=extractive)", {
      ...what,
      code: err.code,
      reason: err.message,
    });
    try {
      return { value: await viaExtractive(), generatedBy: "extractive" };
    } catch (extractiveErr) {
      svc.log.warn("the extractive engine could not stand in for the model", {
        ...what,
        reason: (extractiveErr as Error).message,
      });
      throw err;
    }
  }
}
