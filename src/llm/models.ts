/** Model keys (`model_key` in the API): the provider's model names plus "extractive". */
import { AppError } from "../errors.ts";
import { EXTRACTIVE } from "./providers/extractive.ts";
import { canonicalModel } from "./providers/transport.ts";
import type { Llm } from "./types.ts";

export const EXTRACTIVE_MODEL = EXTRACTIVE;

export async function listModelKeys(llm: Llm): Promise<string[]> {
  const models = llm.engine === "extractive" ? [] : await llm.listModels();
  return [...new Set([...models, EXTRACTIVE])];
}

/**
 * The canonical model name for `key` (the default model when absent), for caches keyed by
 * model. An unknown key is a 422 listing the known ones.
 */
export async function resolveModelKey(llm: Llm, key?: string | null): Promise<string> {
  if (!key) return llm.model;
  const wanted = canonicalModel(key.trim());
  if (wanted === EXTRACTIVE || wanted === llm.model) return wanted;
  const known = await listModelKeys(llm);
  if (known.includes(wanted)) return wanted;
  throw new AppError("VALIDATION_ERROR", `Unknown model_key "${key}"`, { model_key: key, known });
}

/** True when the artefact should be built by the extractive engine. */
export const usesExtractive = (llm: Llm, model?: string) =>
  llm.engine === "extractive" || (model !== undefined && canonicalModel(model) === EXTRACTIVE);
