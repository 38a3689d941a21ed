/**
 * The "no model" engine. It has no free-form generation: artefact functions see
 * `engine === "extractive"` and build their output from the source passages instead
 * (src/llm/extractive/). Asking it for free text fails with a message that says how to add a model.
 */
import { llmError } from "../errors.ts";
import type { ExtractiveBuilds, Llm, LlmDescription, LlmHealth } from "../types.ts";

export const EXTRACTIVE = "extractive";

export const NO_MODEL_MESSAGE =
  "No language model is configured: this needs generated text, and the built-in extractive engine can only " +
  "work from source documents. Run Ollama (OLLAMA_HOST) or an OpenAI-compatible server (OPENAI_BASE_URL), " +
  "or provide documents to build from.";

export class ExtractiveLlm implements Llm {
  readonly engine = "extractive" as const;
  readonly model = EXTRACTIVE;

  constructor(
    readonly builds: ExtractiveBuilds,
    private readonly reason = "configured",
  ) {}

  describe(): LlmDescription {
    return { engine: this.engine, model: this.model, reason: this.reason, endpoints: [] };
  }

  async generateObject(): Promise<never> {
    throw llmError("LLM_UNAVAILABLE", NO_MODEL_MESSAGE);
  }

  async generateText(): Promise<never> {
    throw llmError("LLM_UNAVAILABLE", NO_MODEL_MESSAGE);
  }

  // A generator, so the failure surfaces when the caller iterates, as with a real stream.
  // biome-ignore lint/correctness/useYield: it never yields: there is no model to stream from
  async *streamText(): AsyncIterable<string> {
    throw llmError("LLM_UNAVAILABLE", NO_MODEL_MESSAGE);
  }

  async listModels(): Promise<string[]> {
    return [];
  }

  async health(): Promise<LlmHealth> {
    return { ok: true, engine: this.engine, model: this.model, endpoints: [] };
  }
}
