/**
 * How much source text a prompt may carry: the model's context window (`LLM_NUM_CTX`, the same on
 * every call) less the reply its task may write and the rest of the prompt. Counted in characters
 * at a conservative rate, because Ollama silently drops the start of a prompt that overflows.
 */
import { replyTokens } from "./tasks.ts";
import type { Llm, Prompt, Task } from "./types.ts";

/**
 * Characters per token assumed. English prose runs near four with the tokenizers of common local
 * models; code, tables and other languages run nearer three, so three keeps every prompt inside.
 */
export const CHARS_PER_TOKEN = 3;

// The chat template's own tokens (role markers, the JSON instruction) around the prompt's text.
const TEMPLATE_TOKENS = 96;

/** Source text a prompt shows when the engine has no context window of its own (the extractive engine). */
export const UNBOUNDED = Number.POSITIVE_INFINITY;

/** The least a prompt is given for its sources, whatever the rest of it takes: below this nothing useful fits. */
const MIN_SOURCE_CHARS = 1_500;

/**
 * Characters of source text that fit beside `frame` (the prompt rendered without its sources) and
 * the task's reply in the model's context window.
 */
export function sourceBudget(llm: Llm, task: Task, frame: Prompt, maxTokens?: number): number {
  if (!llm.contextTokens) return UNBOUNDED;
  const free = llm.contextTokens - replyTokens(task, maxTokens) - TEMPLATE_TOKENS;
  const frameChars = (frame.system?.length ?? 0) + frame.user.length;
  return Math.max(MIN_SOURCE_CHARS, free * CHARS_PER_TOKEN - frameChars);
}
