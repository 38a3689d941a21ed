/** Embeddings from an Ollama server's /api/embed, through the official client, trying each host in turn. */
import { AppError } from "../../errors.ts";
import { type Embedder, l2Normalize } from "./types.ts";

export interface OllamaEmbedderSettings {
  hosts: string[];
  model: string;
  timeoutMs: number;
  keepAlive: string;
}

// Ollama embeds a whole request at once; bounded batches keep one call well inside the timeout.
const BATCH = 32;

const unavailable = (message: string) => new AppError("EMBEDDER_UNAVAILABLE", message);

export function ollamaEmbedder(s: OllamaEmbedderSettings, reason = "configured"): Embedder {
  const hosts = s.hosts.map((h) => h.replace(/\/+$/, ""));
  let dimension = 0;
  let next = 0;

  const client = (host: string) => {
    const timed = (input: RequestInfo | URL, init?: RequestInit) => {
      const timeout = AbortSignal.timeout(s.timeoutMs);
      return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
    };
    // Required on first use, not at server start (with its fetch polyfill); a literal name keeps it in the executable.
    const { Ollama: Client } = require("ollama") as typeof import("ollama");
    return new Client({ host, fetch: Object.assign(timed, { preconnect: fetch.preconnect }) });
  };

  async function embedBatch(input: string[]): Promise<number[][]> {
    let lastError = "no Ollama host configured";
    for (let i = 0; i < hosts.length; i++) {
      const host = hosts[(next + i) % hosts.length]!;
      try {
        const res = await client(host).embed({ model: s.model, input, keep_alive: s.keepAlive, truncate: true });
        next = (next + i + 1) % hosts.length;
        return res.embeddings;
      } catch (err) {
        const status = (err as { status_code?: number }).status_code;
        // A 4xx other than a timeout or rate limit (unknown model, bad input) would fail on every host alike.
        if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
          throw unavailable(`Ollama embedding model "${s.model}" failed: ${(err as Error).message}`);
        }
        lastError = `${host}: ${(err as Error).message}`;
      }
    }
    throw unavailable(`No Ollama host answered the embedding request (${lastError})`);
  }

  const id = `ollama:${s.model}`;
  return {
    id,
    get dimension() {
      return dimension;
    },
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const batch = texts.slice(i, i + BATCH);
        const vectors = await embedBatch(batch);
        if (vectors.length !== batch.length)
          throw unavailable(`Ollama returned ${vectors.length} embeddings for ${batch.length} texts`);
        for (const v of vectors) {
          if (dimension && v.length !== dimension)
            throw unavailable(`Ollama model "${s.model}" changed dimension (${dimension} → ${v.length})`);
          dimension = v.length;
          out.push(l2Normalize(Float32Array.from(v)));
        }
      }
      return out;
    },
    describe: () => `${id} at ${hosts.join(", ")} (${reason})`,
  };
}
