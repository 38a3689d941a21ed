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

// The chat template's own tokens (role markers, turn separators) around the messages' text.
const TEMPLATE_TOKENS = 96;

/** What a structured call adds to the system message. */
export const JSON_INSTRUCTION =
  "Reply with one JSON object that follows the given JSON schema exactly. No prose, no markdown fences.";

/** Source text a prompt shows when the engine has no context window of its own (the extractive engine). */
export const UNBOUNDED = Number.POSITIVE_INFINITY;

/** Room every prompt leaves free for a re-ask's message naming what was wrong with the reply. */
export const REASK_CHARS = 600;

/** The least a prompt is given for its sources, whatever the rest of it takes: below this nothing useful fits. */
const MIN_SOURCE_CHARS = 1_500;

/** The server's estimate of the tokens a prompt of `chars` characters (all its messages) takes. */
export const promptTokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN) + TEMPLATE_TOKENS;

/** Characters of messages that fit in `contextTokens` beside a reply of `reply` tokens. */
export const promptRoom = (contextTokens: number, reply: number) =>
  (contextTokens - reply - TEMPLATE_TOKENS) * CHARS_PER_TOKEN - JSON_INSTRUCTION.length - 2;

/**
 * Characters of source text that fit beside `frame` (the prompt rendered without its sources) and
 * the task's reply in the model's context window.
 */
export function sourceBudget(llm: Llm, task: Task, frame: Prompt, maxTokens?: number): number {
  if (!llm.contextTokens) return UNBOUNDED;
  const frameChars = (frame.system?.length ?? 0) + frame.user.length;
  const room = promptRoom(llm.contextTokens, replyTokens(task, maxTokens)) - REASK_CHARS;
  return Math.max(MIN_SOURCE_CHARS, room - frameChars);
}

/** `text` cut at a word to at most `limit` characters. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.lastIndexOf(" ", limit);
  return text.slice(0, cut > limit / 2 ? cut : limit).trimEnd();
}

/**
 * `frame(text)` with `text` cut to what the context window leaves beside the rest of the prompt and
 * the task's reply, and to `cap`: for prompts built on one long text (a chapter, an answer).
 */
export function promptWithin(
  llm: Llm,
  task: Task,
  frame: (text: string) => Prompt,
  text: string,
  cap = UNBOUNDED,
): Prompt {
  return frame(cutText(text, Math.min(cap, sourceBudget(llm, task, frame("")))));
}
