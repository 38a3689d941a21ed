/**
 * The language-model layer's public types. Other domains (courses, materials, podcasts, retrieval)
 * code against these, so names and shapes only ever grow.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { Calls, Work } from "../thread-calls.ts";

/** A retrieved source passage handed to a generator; `id` is what citations refer to. */
export interface Passage {
  id: string;
  text: string;
  documentId?: string;
  filename?: string;
  page?: number | null;
  heading?: string | null;
  /** Enclosing headings, outermost first, when the passage comes from an indexed document. */
  headingPath?: string[];
  score?: number;
  /**
   * Set on a passage the model condensed from several: the ids of the passages it stands for, which
   * a citation of it grounds (its own `id` is the first of them).
   */
  sourceIds?: string[];
}

export type Engine = "ollama" | "openai" | "extractive";

/** Named generation tasks; each has its own temperature, output budget and context size. */
export type Task =
  | "outline"
  | "chapter"
  | "study_guide"
  | "notes"
  | "flashcards"
  | "exam"
  | "grading"
  | "answer"
  | "podcast"
  | "condense"
  | "general";

export interface Prompt {
  system?: string;
  user: string;
}

export interface CallOptions {
  /** Overrides the default model (a name from listModels()). */
  model?: string;
  task?: Task;
  temperature?: number;
  /** Upper bound of generated tokens. */
  maxTokens?: number;
  /** Counts the call's cost (a UsageMeter sums a course's or a material's calls). */
  meter?: { add(usage: CallUsage): void };
  signal?: AbortSignal;
}

export interface StructuredOptions<T> extends CallOptions {
  /** Checks a schema cannot express (cross-field rules); returned messages are fed back to the model. */
  refine?: (value: T) => string[];
  /**
   * The same prompt to the same model gets the reply it got before, without a call (a bounded
   * memo): for replies that depend on the prompt alone, as condensed notes do on their passages.
   */
  reuse?: boolean;
}

/** What one model call cost; summed by UsageMeter. */
export interface CallUsage {
  engine: Engine;
  model: string;
  promptTokens: number;
  completionTokens: number;
  ms: number;
}

export interface LlmDescription {
  engine: Engine;
  model: string;
  /** Why this engine was picked (auto selection) or "configured". */
  reason: string;
  /** Ollama hosts or the OpenAI-compatible base URL; empty for extractive. */
  endpoints: string[];
}

export interface LlmHealth {
  ok: boolean;
  engine: Engine;
  model: string;
  endpoints: { url: string; ok: boolean; version?: string; error?: string }[];
}

/** One provider. Every method throws AppError (see ./errors.ts) on failure. */
export interface Llm {
  readonly engine: Engine;
  /** The default model name ("extractive" for the extractive engine). */
  readonly model: string;
  /** The context window (tokens) every call requests; absent for the extractive engine, which has none. */
  readonly contextTokens?: number;
  describe(): LlmDescription;
  /** A schema-valid object: repaired, validated and re-asked as needed. */
  generateObject<S extends TSchema>(
    schema: S,
    prompt: Prompt | string,
    opts?: StructuredOptions<Static<S>>,
  ): Promise<Static<S>>;
  generateText(prompt: Prompt | string, opts?: CallOptions): Promise<string>;
  streamText(prompt: Prompt | string, opts?: CallOptions): AsyncIterable<string>;
  /** The provider's model names (":latest" dropped), without "extractive". */
  listModels(): Promise<string[]>;
  health(): Promise<LlmHealth>;
  /**
   * The extractive engine's course builders, in the engine's thread (src/engine-thread.ts): every
   * engine has them, for a course a learner asks of "extractive" and a model's fallback. Called
   * through artefacts/common.ts's `extractive`, which types each by its builder.
   */
  readonly builds: ExtractiveBuilds;
}

/** Calls into the engine's thread by a builder's name (extractive/engine.ts). */
export type ExtractiveBuilds = Calls<Work>;
