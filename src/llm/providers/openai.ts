/**
 * Any OpenAI-compatible chat server (llama.cpp server, vLLM, LM Studio). Plain fetch: the surface
 * we use is two endpoints, and the `openai` SDK would add retries and types we already own.
 */
import { EventSourceParserStream } from "eventsource-parser/stream";
import { classifyFailure, fromHttpStatus } from "../errors.ts";
import type { LlmHealth } from "../types.ts";
import {
  type Completion,
  type CompletionRequest,
  callSignal,
  canonicalModel,
  type StreamPiece,
  type Transport,
} from "./transport.ts";

export interface OpenAiSettings {
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
  probeTimeoutMs?: number;
}

interface ChatCompletion {
  choices?: {
    message?: { content?: string | null; refusal?: string | null };
    delta?: { content?: string | null };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

export class OpenAiTransport implements Transport {
  readonly engine = "openai" as const;
  private readonly base: string;

  constructor(private readonly settings: OpenAiSettings) {
    this.base = settings.baseUrl.replace(/\/+$/, "");
  }

  endpoints(): string[] {
    return [this.base];
  }

  private async post(req: CompletionRequest, stream: boolean): Promise<Response> {
    const body = {
      model: req.model,
      messages: req.messages,
      temperature: req.sampling.temperature,
      max_tokens: req.sampling.maxTokens,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
      ...(req.schema
        ? {
            response_format: { type: "json_schema", json_schema: { name: "reply", schema: req.schema, strict: false } },
          }
        : {}),
    };
    return this.fetchOk("/chat/completions", callSignal(this.settings.timeoutMs, req.signal), {
      method: "POST",
      body: JSON.stringify(body),
    });
  }

  private async fetchOk(path: string, signal: AbortSignal, init: RequestInit = {}): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(this.base + path, {
        ...init,
        signal,
        headers: {
          "content-type": "application/json",
          ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}),
        },
      });
    } catch (err) {
      throw classifyFailure(err, this.base, this.settings.timeoutMs);
    }
    if (!res.ok) throw fromHttpStatus(res.status, await res.text().catch(() => res.statusText), this.base);
    return res;
  }

  async complete(req: CompletionRequest): Promise<Completion> {
    try {
      const data = (await (await this.post(req, false)).json()) as ChatCompletion;
      const choice = data.choices?.[0];
      const refusal = choice?.message?.refusal;
      return {
        text: refusal || choice?.message?.content || "",
        promptTokens: data.usage?.prompt_tokens ?? 0,
        completionTokens: data.usage?.completion_tokens ?? 0,
        refused: Boolean(refusal) || choice?.finish_reason === "content_filter",
      };
    } catch (err) {
      throw classifyFailure(err, this.base, this.settings.timeoutMs);
    }
  }

  async *stream(req: CompletionRequest): AsyncIterable<StreamPiece> {
    const res = await this.post(req, true);
    if (!res.body) throw classifyFailure(new Error("empty response body"), this.base, this.settings.timeoutMs);
    const events = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
    let text = "";
    let usage: ChatCompletion["usage"] = null;
    try {
      for await (const event of events) {
        if (event.data === "[DONE]") break;
        const chunk = JSON.parse(event.data) as ChatCompletion;
        usage = chunk.usage ?? usage;
        const delta = chunk.choices?.[0]?.delta?.content ?? "";
        text += delta;
        if (delta) yield { delta };
      }
    } catch (err) {
      throw classifyFailure(err, this.base, this.settings.timeoutMs);
    }
    yield { done: { text, promptTokens: usage?.prompt_tokens ?? 0, completionTokens: usage?.completion_tokens ?? 0 } };
  }

  async listModels(): Promise<string[]> {
    const res = await this.fetchOk("/models", callSignal(this.probeMs()));
    const data = (await res.json()) as { data?: { id: string }[] };
    return [...new Set((data.data ?? []).map((m) => canonicalModel(m.id)))].sort();
  }

  async health(model: string): Promise<LlmHealth> {
    try {
      await this.listModels();
      return { ok: true, engine: this.engine, model, endpoints: [{ url: this.base, ok: true }] };
    } catch (err) {
      const error = classifyFailure(err, this.base, this.probeMs()).message;
      return { ok: false, engine: this.engine, model, endpoints: [{ url: this.base, ok: false, error }] };
    }
  }

  private probeMs() {
    return this.settings.probeTimeoutMs ?? 2000;
  }
}
