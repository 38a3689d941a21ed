/**
 * The Llm contract over any Transport: retries of transient failures, refusal detection, usage
 * accounting, and the structured-output loop (parse → repair → validate → re-ask with the errors).
 */

import type { Static, TSchema } from "@sinclair/typebox";
import pRetry from "p-retry";
import { AppError } from "../errors.ts";
import { modelCalls, modelDuration } from "../metrics.ts";
import { JSON_INSTRUCTION, promptRoom, REASK_CHARS } from "./context-budget.ts";
import { isTransient, llmError, looksLikeRefusal } from "./errors.ts";
import type { ChatMessage, Completion, CompletionRequest, Transport } from "./providers/transport.ts";
import { canonicalModel } from "./providers/transport.ts";
import {
  isValid,
  normalize,
  parseJsonReply,
  ReasoningFilter,
  toJsonSchema,
  validationErrors,
  withoutReasoning,
} from "./repair.ts";
import { samplingFor } from "./tasks.ts";
import type {
  CallOptions,
  ExtractiveBuilds,
  Llm,
  LlmDescription,
  LlmHealth,
  Prompt,
  StructuredOptions,
} from "./types.ts";

export interface ModelLlmSettings {
  model: string;
  maxRetries: number;
  maxCtx: number;
  reason: string;
  builds: ExtractiveBuilds;
  /** Pause before the first retry of a transient failure; doubles after. */
  retryDelayMs?: number;
}

// How much of an invalid reply is echoed back when re-asking: enough to fix, when the context window has room for it.
const ECHO_LIMIT = 6000;
// Replies kept for `reuse` calls: a course's condensed notes, many courses over (each a few kB).
const REUSED_REPLIES = 2_000;
// An echo shorter than this shows too little of the reply to correct: the re-ask names the errors alone.
const MIN_ECHO = 400;
// What the errors may take of a re-ask at least, however full the window: the room every prompt leaves for them.
const MIN_ERRORS_CHARS = REASK_CHARS - 100;

const toPrompt = (p: Prompt | string): Prompt => (typeof p === "string" ? { user: p } : p);

export class ModelLlm implements Llm {
  readonly engine;
  readonly model: string;
  /** Valid replies to `reuse` calls by their request's hash, oldest first (a least-recently-used memo). */
  private readonly reused = new Map<string, unknown>();

  constructor(
    private readonly transport: Transport,
    private readonly settings: ModelLlmSettings,
  ) {
    this.engine = transport.engine;
    this.model = canonicalModel(settings.model);
  }

  get builds(): ExtractiveBuilds {
    return this.settings.builds;
  }

  get contextTokens(): number {
    return this.settings.maxCtx;
  }

  describe(): LlmDescription {
    return {
      engine: this.engine,
      model: this.model,
      reason: this.settings.reason,
      endpoints: this.transport.endpoints(),
    };
  }

  listModels(): Promise<string[]> {
    return this.transport.listModels();
  }

  health(): Promise<LlmHealth> {
    return this.transport.health(this.model);
  }

  async generateText(prompt: Prompt | string, opts: CallOptions = {}): Promise<string> {
    const completion = await this.call(this.messages(toPrompt(prompt)), opts);
    if (completion.refused || looksLikeRefusal(completion.text)) throw refusal(completion.text);
    return completion.text.trim();
  }

  async *streamText(prompt: Prompt | string, opts: CallOptions = {}): AsyncIterable<string> {
    const req = this.request(this.messages(toPrompt(prompt)), opts);
    const started = performance.now();
    const reasoning = new ReasoningFilter();
    for await (const piece of this.transport.stream(req)) {
      if ("delta" in piece) {
        const visible = reasoning.push(piece.delta);
        if (visible) yield visible;
      } else {
        this.record(req.model, piece.done, started, opts);
      }
    }
  }

  async generateObject<S extends TSchema>(
    schema: S,
    prompt: Prompt | string,
    opts: StructuredOptions<Static<S>> = {},
  ): Promise<Static<S>> {
    const p = toPrompt(prompt);
    const asked = this.messages({ system: [p.system, JSON_INSTRUCTION].filter(Boolean).join("\n\n"), user: p.user });
    let messages = asked;
    const jsonSchema = toJsonSchema(schema);
    const key = opts.reuse ? requestKey(this.request(asked, opts, jsonSchema)) : null;
    if (key && this.reused.has(key)) return this.remember(key, this.reused.get(key)) as Static<S>;
    let errors: string[] = [];
    for (let attempt = 0; attempt <= this.settings.maxRetries; attempt++) {
      const completion = await this.call(messages, opts, jsonSchema);
      if (completion.refused) throw refusal(completion.text);
      const parsed = parseJsonReply(completion.text);
      if (parsed.ok) {
        const value = normalize(schema, parsed.value);
        errors = validationErrors(schema, value);
        if (errors.length === 0 && isValid(schema, value)) {
          errors = opts.refine?.(value) ?? [];
          if (errors.length === 0) return key ? (this.remember(key, value) as Static<S>) : value;
        }
      } else {
        if (looksLikeRefusal(completion.text)) throw refusal(completion.text);
        errors = [parsed.error];
      }
      messages = [...asked, ...this.reask(asked, completion.text, errors, opts)];
    }
    throw llmError(
      "MODEL_OUTPUT_INVALID",
      `The model's reply did not match the expected structure after ${this.settings.maxRetries + 1} attempts: ${errors.slice(0, 3).join("; ")}`,
      { reason: "invalid_output", errors },
    );
  }

  /** Keeps `value` as the newest reply to `key`, dropping the oldest beyond REUSED_REPLIES; a copy for the caller. */
  private remember(key: string, value: unknown): unknown {
    this.reused.delete(key);
    this.reused.set(key, value);
    if (this.reused.size > REUSED_REPLIES) this.reused.delete(this.reused.keys().next().value!);
    return structuredClone(value);
  }

  /**
   * The turns that re-ask after an invalid reply, within the context window: the prompt as first
   * asked, then only the last failed reply (cut to the room left, or left out when too little is)
   * and its errors (cut likewise). Earlier failed replies are not carried along.
   */
  private reask(asked: ChatMessage[], reply: string, errors: string[], opts: CallOptions): ChatMessage[] {
    const replyTokens = samplingFor(opts, this.settings.maxCtx).maxTokens;
    const room = promptRoom(this.settings.maxCtx, replyTokens) - asked.reduce((n, m) => n + m.content.length, 0);
    const tail = ". Reply again with only the corrected JSON object.";
    const opening = "Your previous reply was not valid: ";
    // The errors first (the prompts leave REASK_CHARS for them), then as much of the reply as still fits.
    const errorText = errors.join("; ").slice(0, Math.max(MIN_ERRORS_CHARS, room - opening.length - tail.length));
    const echo = Math.min(ECHO_LIMIT, room - opening.length - errorText.length - tail.length);
    if (echo < MIN_ECHO) return [{ role: "user", content: `${opening}${errorText}${tail}` }];
    return [
      { role: "assistant", content: reply.slice(0, echo) },
      { role: "user", content: `That reply is not valid: ${errorText}${tail}` },
    ];
  }

  private messages(p: Prompt): ChatMessage[] {
    const out: ChatMessage[] = [];
    if (p.system) out.push({ role: "system", content: p.system });
    out.push({ role: "user", content: p.user });
    return out;
  }

  private request(messages: ChatMessage[], opts: CallOptions, schema?: Record<string, unknown>): CompletionRequest {
    return {
      model: opts.model && opts.model !== this.model ? opts.model : this.settings.model,
      messages,
      schema,
      sampling: samplingFor(opts, this.settings.maxCtx),
      signal: opts.signal,
    };
  }

  /** One completion, retried with backoff while the failure is transient (rate limit, host down). */
  private async call(
    messages: ChatMessage[],
    opts: CallOptions,
    schema?: Record<string, unknown>,
  ): Promise<Completion> {
    const req = this.request(messages, opts, schema);
    const started = performance.now();
    try {
      const completion = await pRetry(() => this.transport.complete(req), {
        retries: this.settings.maxRetries,
        minTimeout: this.settings.retryDelayMs ?? 500,
        factor: 2,
        randomize: true,
        signal: opts.signal,
        shouldRetry: ({ error }) => isTransient(error),
      });
      this.record(req.model, completion, started, opts);
      // Reasoning never reaches what is parsed or stored.
      return { ...completion, text: withoutReasoning(completion.text) };
    } catch (err) {
      const outcome = err instanceof AppError ? err.code : "LLM_UNAVAILABLE";
      modelCalls.inc({ engine: this.engine, model: canonicalModel(req.model), outcome });
      throw err;
    }
  }

  private record(model: string, c: Completion, started: number, opts: CallOptions) {
    const labels = { engine: this.engine, model: canonicalModel(model) };
    modelCalls.inc({ ...labels, outcome: "ok" });
    modelDuration.observe(labels, (performance.now() - started) / 1000);
    opts.meter?.add({
      engine: this.engine,
      model: canonicalModel(model),
      promptTokens: c.promptTokens,
      completionTokens: c.completionTokens,
      ms: performance.now() - started,
    });
  }
}

/** What makes two requests the same: model, messages, schema and sampling. */
const requestKey = (req: CompletionRequest) =>
  new Bun.CryptoHasher("sha256")
    .update(JSON.stringify([req.model, req.messages, req.schema, req.sampling]))
    .digest("hex");

const refusal = (text: string) =>
  llmError("LLM_REFUSED", `The model declined to produce this content: ${text.trim().slice(0, 200)}`);
