/** Builds the configured Llm; `auto` probes Ollama, then falls back to OpenAI-compatible, then extractive. */
import { type Clock, systemClock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ModelLlm } from "./model-llm.ts";
import { ExtractiveLlm } from "./providers/extractive.ts";
import { OllamaTransport } from "./providers/ollama.ts";
import { OpenAiTransport } from "./providers/openai.ts";
import type { ExtractiveBuilds, Llm } from "./types.ts";

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
  /** The extractive builders' calls into the engine's thread: every engine has them (Llm.builds). */
  builds: ExtractiveBuilds;
}

export async function createLlm(config: LlmConfig, options: CreateLlmOptions): Promise<Llm> {
  const { builds } = options;
  const probeTimeoutMs = options.probeTimeoutMs ?? 1500;
  const ollama = (reason: string) => {
    const transport = new OllamaTransport({
      hosts: config.ollamaHost,
      timeoutMs: config.llmTimeoutMs,
      keepAlive: config.llmKeepAlive,
      probeTimeoutMs,
      clock: options.clock ?? systemClock,
    });
    return new ModelLlm(transport, modelSettings(config, reason, builds, options));
  };
  const openai = (reason: string) => {
    const transport = new OpenAiTransport({
      baseUrl: config.openaiBaseUrl ?? "",
      apiKey: config.openaiApiKey,
      timeoutMs: config.llmTimeoutMs,
      probeTimeoutMs,
    });
    return new ModelLlm(transport, modelSettings(config, reason, builds, options));
  };

  switch (config.llmProvider) {
    case "ollama":
      return ollama("configured");
    case "openai":
      if (!config.openaiBaseUrl) throw new Error("LLM_PROVIDER=openai needs OPENAI_BASE_URL");
      return openai("configured");
    case "extractive":
      return new ExtractiveLlm(builds, "configured");
    case "auto": {
      const reachable = await reachableOllamaHosts(config.ollamaHost, probeTimeoutMs);
      if (reachable.length > 0) return ollama(`auto: Ollama answered at ${reachable.join(", ")}`);
      if (config.openaiBaseUrl) return openai("auto: no Ollama reachable; OPENAI_BASE_URL is set");
      return new ExtractiveLlm(builds, "auto: no Ollama reachable and OPENAI_BASE_URL not set");
    }
  }
}

function modelSettings(config: LlmConfig, reason: string, builds: ExtractiveBuilds, options: CreateLlmOptions) {
  return {
    builds,
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
