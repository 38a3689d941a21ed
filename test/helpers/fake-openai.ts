/**
 * A fake OpenAI-compatible server (llama.cpp server, vLLM, LM Studio stand-in) on 127.0.0.1:
 * /v1/chat/completions (JSON or SSE streaming, `response_format` json_schema honoured) and
 * /v1/models. Misbehaviour as in fake-ollama.ts.
 *
 * Standalone: `bun test/helpers/fake-openai.ts --port 8000 --latency-ms 0`.
 */
import type { Server } from "bun";
import {
  approxTokens,
  Behaviour,
  chatPrompt,
  type FakeMode,
  REFUSAL_TEXT,
  type RecordedCall,
  type Responder,
  replyText,
  userText,
} from "./fake-ollama.ts";

export interface FakeOpenAi {
  /** Base URL including /v1, as OPENAI_BASE_URL expects. */
  url: string;
  port: number;
  calls: RecordedCall[];
  behave(mode: FakeMode | "refusal_field", times?: number): void;
  respondWith(responder: Responder | null): void;
  close(): Promise<void>;
}

export function startFakeOpenAi(
  opts: { port?: number; latencyMs?: number; models?: string[]; apiKey?: string } = {},
): FakeOpenAi {
  const behaviour = new Behaviour(opts.latencyMs ?? 0);
  let refusalField = 0;
  const calls: RecordedCall[] = [];
  const models = opts.models ?? ["qwen2.5-7b-instruct", "llama-3.1-8b"];
  const hanging = new Set<() => void>();
  const json = (data: unknown, status = 200) => Response.json(data, { status });

  async function completions(body: Record<string, any>): Promise<Response> {
    const mode = behaviour.take();
    if (mode === "hang") return new Promise((resolve) => hanging.add(() => resolve(json({ error: "closing" }, 503))));
    if (mode === "rate_limit") return json({ error: { message: "Rate limit reached", type: "rate_limit" } }, 429);
    if (mode === "down") return json({ error: { message: "backend unavailable" } }, 503);
    const schema = body.response_format?.type === "json_schema" ? body.response_format.json_schema?.schema : null;
    const prompt = chatPrompt(body);
    const refusal = refusalField > 0 ? REFUSAL_TEXT : null;
    if (refusal) refusalField--;
    const text = refusal
      ? ""
      : replyText(mode, schema, userText(body) || prompt, behaviour.responder?.({ path: "chat", body, prompt }));
    const usage = { prompt_tokens: approxTokens(prompt), completion_tokens: approxTokens(text), total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const base = { id: "chatcmpl-fake", created: Math.floor(Date.now() / 1000), model: body.model };
    if (!body.stream) {
      return json({
        ...base,
        object: "chat.completion",
        choices: [
          { index: 0, message: { role: "assistant", content: refusal ? null : text, refusal }, finish_reason: "stop" },
        ],
        usage,
      });
    }
    const size = Math.max(1, Math.ceil(text.length / 5));
    const events: string[] = [];
    for (let i = 0; i < text.length; i += size) {
      events.push(
        JSON.stringify({
          ...base,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta: { content: text.slice(i, i + size) }, finish_reason: null }],
        }),
      );
    }
    events.push(
      JSON.stringify({
        ...base,
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
      }),
    );
    if (body.stream_options?.include_usage)
      events.push(JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage }));
    const sse = `${events.map((e) => `data: ${e}\n\n`).join("")}data: [DONE]\n\n`;
    return new Response(sse, { headers: { "content-type": "text/event-stream" } });
  }

  let answering = 0;
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: opts.port ?? 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const body = req.method === "POST" ? ((await req.json().catch(() => null)) as Record<string, any> | null) : null;
      calls.push({ path: url.pathname, method: req.method, body, at: Date.now(), beside: answering });
      if (opts.apiKey && req.headers.get("authorization") !== `Bearer ${opts.apiKey}`) {
        return json({ error: { message: "invalid api key" } }, 401);
      }
      answering++;
      try {
        if (behaviour.latencyMs > 0) await Bun.sleep(behaviour.latencyMs);
      } finally {
        answering--;
      }
      if (url.pathname === "/v1/models") {
        if (behaviour.peek() === "down") return json({ error: { message: "backend unavailable" } }, 503);
        return json({ object: "list", data: models.map((id) => ({ id, object: "model", owned_by: "fake" })) });
      }
      if (url.pathname === "/v1/chat/completions" && req.method === "POST") return completions(body ?? {});
      return json({ error: { message: "not found" } }, 404);
    },
  });

  const port = server.port!;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    calls,
    behave: (mode, times) => {
      if (mode === "refusal_field") refusalField = times ?? Number.POSITIVE_INFINITY;
      else behaviour.set(mode, times);
    },
    respondWith: (responder) => {
      behaviour.responder = responder;
    },
    async close() {
      for (const release of hanging) release();
      hanging.clear();
      await server.stop(true);
    },
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const arg = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const fake = startFakeOpenAi({ port: Number(arg("--port") ?? 8000), latencyMs: Number(arg("--latency-ms") ?? 0) });
  console.log(`fake-openai listening on ${fake.url}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
