/** Shared set-up for the LLM tests: configs pointing at the fake servers. */
import type { LlmConfig } from "../../src/llm/create.ts";
import { engineThread } from "../helpers/engine-thread.ts";

export function llmConfig(overrides: Partial<LlmConfig> = {}): LlmConfig {
  return {
    llmProvider: "ollama",
    ollamaHost: ["http://127.0.0.1:9"],
    openaiBaseUrl: null,
    openaiApiKey: null,
    llmModel: "llama3.2",
    // Long enough that a fake answering on a loaded machine is never taken for a timeout; timeout tests set their own.
    llmTimeoutMs: 60_000,
    llmMaxRetries: 2,
    llmNumCtx: 8192,
    llmKeepAlive: "7m",
    ...overrides,
  };
}

/** Fast back-off for tests (retries still happen, just without the production pauses), and the engine thread every model is built with. */
export const fast = { probeTimeoutMs: 500, retryDelayMs: 5, builds: engineThread };
