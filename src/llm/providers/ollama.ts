/** Ollama through the official `ollama` client, over one or more hosts (see HostPool). */
import type { ChatResponse, Ollama } from "ollama";
import type { Clock } from "../../clock.ts";
import { classifyFailure, isTransient } from "../errors.ts";
import type { LlmHealth } from "../types.ts";
import { HostPool } from "./host-pool.ts";
import {
  type Completion,
  type CompletionRequest,
  callSignal,
  canonicalModel,
  type StreamPiece,
  type Transport,
} from "./transport.ts";

export interface OllamaSettings {
  hosts: string[];
  timeoutMs: number;
  keepAlive: string;
  probeTimeoutMs?: number;
  /** Times the cool-down of a failing host. */
  clock: Clock;
}

const trimSlash = (u: string) => u.replace(/\/+$/, "");

export class OllamaTransport implements Transport {
  readonly engine = "ollama" as const;
  readonly pool: HostPool;

  constructor(private readonly settings: OllamaSettings) {
    this.pool = new HostPool(settings.hosts.map(trimSlash), settings.clock);
  }

  endpoints(): string[] {
    return this.pool.hosts;
  }

  /** A client whose every request carries `signal` (the client only forwards one when streaming). */
  private client(host: string, signal: AbortSignal): Ollama {
    const withSignal = (input: RequestInfo | URL, init?: RequestInit) =>
      fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
    // Required on first use, not at server start (with its fetch polyfill); a literal name keeps it in the executable.
    const { Ollama: Client } = require("ollama") as typeof import("ollama");
    return new Client({ host, fetch: Object.assign(withSignal, { preconnect: fetch.preconnect }) });
  }

  /**
   * What the model can do, from /api/show, asked once per model. A reasoning model is told not to
   * think aloud (`think: false`): its reasoning would spend the reply's token budget and has no
   * place in a course; a model without the capability must not be sent the setting at all (Ollama
   * rejects it). A model whose capabilities cannot be read is treated as one without.
   */
  private readonly capabilities = new Map<string, Promise<string[]>>();

  private async thinkSetting(host: string, req: CompletionRequest): Promise<{ think?: boolean }> {
    let known = this.capabilities.get(req.model);
    if (!known) {
      known = this.client(host, callSignal(this.probeMs(), req.signal))
        .show({ model: req.model })
        .then((r) => r.capabilities ?? [])
        .catch(() => []);
      this.capabilities.set(req.model, known);
    }
    return (await known).includes("thinking") ? { think: false } : {};
  }

  private async body(host: string, req: CompletionRequest) {
    return {
      model: req.model,
      messages: req.messages,
      ...(req.schema ? { format: req.schema } : {}),
      ...(await this.thinkSetting(host, req)),
      keep_alive: this.settings.keepAlive,
      options: {
        temperature: req.sampling.temperature,
        num_ctx: req.sampling.numCtx,
        num_predict: req.sampling.maxTokens,
      },
    };
  }

  /** Runs `fn` on each host in turn until one succeeds or a failure is not the host's fault. */
  private async onSomeHost<T>(fn: (host: string) => Promise<T>): Promise<T> {
    let last: unknown;
    for (const host of this.pool.order()) {
      try {
        const out = await fn(host);
        this.pool.markUp(host);
        return out;
      } catch (err) {
        const e = classifyFailure(err, host, this.settings.timeoutMs);
        if (!isTransient(e)) throw e;
        this.pool.markDown(host);
        last = e;
      }
    }
    throw last;
  }

  complete(req: CompletionRequest): Promise<Completion> {
    return this.onSomeHost(async (host) => {
      const res = await this.client(host, callSignal(this.settings.timeoutMs, req.signal)).chat({
        ...(await this.body(host, req)),
        stream: false,
      });
      return toCompletion(res, res.message?.content ?? "");
    });
  }

  async *stream(req: CompletionRequest): AsyncIterable<StreamPiece> {
    const signal = callSignal(this.settings.timeoutMs, req.signal);
    const { iterator, host } = await this.onSomeHost(async (host) => ({
      host,
      iterator: await this.client(host, signal).chat({ ...(await this.body(host, req)), stream: true }),
    }));
    let text = "";
    try {
      for await (const part of iterator) {
        const delta = part.message?.content ?? "";
        text += delta;
        if (delta) yield { delta };
        if (part.done) yield { done: toCompletion(part, text) };
      }
    } catch (err) {
      throw classifyFailure(err, host, this.settings.timeoutMs);
    } finally {
      iterator.abort();
    }
  }

  listModels(): Promise<string[]> {
    return this.onSomeHost(async (host) => {
      const res = await this.client(host, callSignal(this.probeMs())).list();
      return [...new Set(res.models.map((m) => canonicalModel(m.name)))].sort();
    });
  }

  async health(model: string): Promise<LlmHealth> {
    const endpoints = await Promise.all(
      this.pool.hosts.map(async (url) => {
        try {
          const { version } = await this.client(url, callSignal(this.probeMs())).version();
          this.pool.markUp(url);
          return { url, ok: true, version };
        } catch (err) {
          return { url, ok: false, error: classifyFailure(err, url, this.probeMs()).message };
        }
      }),
    );
    return { ok: endpoints.some((e) => e.ok), engine: this.engine, model, endpoints };
  }

  private probeMs() {
    return this.settings.probeTimeoutMs ?? 2000;
  }
}

function toCompletion(res: ChatResponse, text: string): Completion {
  return { text, promptTokens: res.prompt_eval_count ?? 0, completionTokens: res.eval_count ?? 0 };
}
