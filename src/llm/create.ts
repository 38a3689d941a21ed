/** Builds the configured Llm; `auto` probes Ollama, then falls back to OpenAI-compatible, then extractive. */
import { type Clock, systemClock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ModelLlm } from "./model-llm.ts";
import { ExtractiveLlm } from "./providers/extractive.ts";
import { OllamaTransport } from "./providers/ollama.ts";
import { OpenAiTransport } from "./providers/openai.ts";
import type { Llm } from "./types.ts";

export type LlmConfig = Pick<
  Config,
  | "llmProvider"
  | "ollamaHost"
  | "openaiBaseUrl"
  | "openaiApiKey"
  | "llmModel"
  | "llmTimeoutMs"
  | "llmMaxRetries"
  | "llmNumCtx"
  | "llmKeepAlive"
>;

export interface CreateLlmOptions {
  /** How long `auto` waits for an Ollama host to answer /api/version. */
  probeTimeoutMs?: number;
  /** First back-off pause after a transient failure (tests shorten it). */
  retryDelayMs?: number;
  /** The composed clock (the system's when a test or tool builds a model alone). */
  clock?: Clock;
}

export async function createLlm(config: LlmConfig, options: CreateLlmOptions = {}): Promise<Llm> {
  const probeTimeoutMs = options.probeTimeoutMs ?? 1500;
  const ollama = (reason: string) => {
    const transport = new OllamaTransport({
      hosts: config.ollamaHost,
      timeoutMs: config.llmTimeoutMs,
      keepAlive: config.llmKeepAlive,
      probeTimeoutMs,
      clock: options.clock ?? systemClock,
    });
    return new ModelLlm(transport, modelSettings(config, reason, options));
  };
  const openai = (reason: string) => {
    const transport = new OpenAiTransport({
      baseUrl: config.openaiBaseUrl ?? "",
      apiKey: config.openaiApiKey,
      timeoutMs: config.llmTimeoutMs,
      probeTimeoutMs,
    });
    return new ModelLlm(transport, modelSettings(config, reason, options));
  };

  switch (config.llmProvider) {
    case "ollama":
      return ollama("configured");
    case "openai":
      if (!config.openaiBaseUrl) throw new Error("LLM_PROVIDER=openai needs OPENAI_BASE_URL");
      return openai("configured");
    case "extractive":
      return new ExtractiveLlm("configured");
    case "auto": {
      const reachable = await reachableOllamaHosts(config.ollamaHost, probeTimeoutMs);
      if (reachable.length > 0) return ollama(`auto: Ollama answered at ${reachable.join(", ")}`);
      if (config.openaiBaseUrl) return openai("auto: no Ollama reachable; OPENAI_BASE_URL is set");
      return new ExtractiveLlm("auto: no Ollama reachable and OPENAI_BASE_URL not set");
    }
  }
}

function modelSettings(config: LlmConfig, reason: string, options: CreateLlmOptions) {
  return {
    model: config.llmModel,
    maxRetries: config.llmMaxRetries,
    maxCtx: config.llmNumCtx,
    reason,
    retryDelayMs: options.retryDelayMs,
  };
}

async function reachableOllamaHosts(hosts: string[], timeoutMs: number): Promise<string[]> {
  const results = await Promise.all(
    hosts.map(async (host) => {
      try {
        const res = await fetch(`${host.replace(/\/+$/, "")}/api/version`, { signal: AbortSignal.timeout(timeoutMs) });
        return res.ok ? host : null;
      } catch {
        return null;
      }
    }),
  );
  return results.filter((h): h is string => h !== null);
}
