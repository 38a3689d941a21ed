/** What a model server must offer; ModelLlm builds the whole Llm contract on top of it. */

import type { Sampling } from "../tasks.ts";
import type { Engine, LlmHealth } from "../types.ts";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface CompletionRequest {
  model: string;
  messages: ChatMessage[];
  /** JSON Schema the reply must follow; absent for free text. */
  schema?: Record<string, unknown>;
  sampling: Sampling;
  signal?: AbortSignal;
}

export interface Completion {
  text: string;
  promptTokens: number;
  completionTokens: number;
  /** The server said it declined (OpenAI `refusal`, content filter). */
  refused?: boolean;
}

export type StreamPiece = { delta: string } | { done: Completion };

export interface Transport {
  readonly engine: Exclude<Engine, "extractive">;
  endpoints(): string[];
  complete(req: CompletionRequest): Promise<Completion>;
  stream(req: CompletionRequest): AsyncIterable<StreamPiece>;
  listModels(): Promise<string[]>;
  health(model: string): Promise<LlmHealth>;
}

/** Ollama reports "name:latest" for an untagged pull; we show and match the plain name. */
export const canonicalModel = (name: string) => name.replace(/:latest$/, "");

/** A caller's abort signal combined with the per-call timeout. */
export function callSignal(timeoutMs: number, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}
