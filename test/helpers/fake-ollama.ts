/**
 * A fake Ollama for tests: a real HTTP server on 127.0.0.1 speaking Ollama's API (/api/chat,
 * /api/generate, /api/embed, /api/tags, /api/version; NDJSON streaming and not). It answers any
 * `format` JSON schema with a schema-valid instance made of words from the prompt, and can be told
 * to misbehave (hang, 429, invalid JSON, refusal, down) for a number of calls.
 *
 * Standalone: `bun test/helpers/fake-ollama.ts --port 11434 --latency-ms 50 [--models a,b]`
 * prints `fake-ollama listening on http://127.0.0.1:PORT` and serves until killed.
 */
import type { Server } from "bun";
import { isStopword } from "../../src/llm/extractive/text.ts";

export type FakeMode =
  | "ok"
  /** Accepts the request and never answers (client timeouts). */
  | "hang"
  /** 429 Too Many Requests. */
  | "rate_limit"
  /** 503 on every endpoint, as a host that is failing. */
  | "down"
  /** A reply that is not JSON at all: forces a re-ask. */
  | "invalid_json"
  /** Valid JSON that breaks the schema (wrong types, missing keys): forces a re-ask. */
  | "schema_violation"
  /** The right JSON inside ``` fences with a trailing comma: repairable without re-asking. */
  | "fenced"
  /** The right JSON cut off half way: repairable by jsonrepair only when the cut is benign. */
  | "truncated"
  /** A prose refusal instead of an answer. */
  | "refuse";

export interface RecordedCall {
  path: string;
  method: string;
  body: Record<string, any> | null;
  at: number;
  /** Calls still being answered when this one arrived: how many the client had in flight beside it. */
  beside: number;
  /** The text a generation call was answered with, once answered. */
  reply?: string;
}

export interface FakeOllamaOptions {
  port?: number;
  latencyMs?: number;
  /** Model names /api/tags reports (default llama3.2:latest, qwen2.5:7b). */
  models?: string[];
}

/** Custom content for a chat/generate reply; return undefined to fall back to the generated one. */
export type Responder = (req: { path: string; body: Record<string, any>; prompt: string }) => string | undefined;

export interface FakeOllama {
  url: string;
  port: number;
  calls: RecordedCall[];
  /**
   * Applies `mode` to the next `times` calls (default: until changed). Generations take every mode;
   * embeddings take hang/rate_limit/down; tags and version answer 429/503 while those are set.
   */
  behave(mode: FakeMode, times?: number): void;
  setLatency(ms: number): void;
  respondWith(responder: Responder | null): void;
  /** Generation calls (chat + generate) answered so far. */
  generations(): RecordedCall[];
  close(): Promise<void>;
}

export const EMBED_DIMENSIONS = 384;
const DEFAULT_MODELS = ["llama3.2:latest", "qwen2.5:7b"];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Schema-valid instances

type JsonSchema = Record<string, any>;

/** Words to build strings from: the prompt's own vocabulary, so output is "about" the request. */
export function promptWords(prompt: string): string[] {
  const words = prompt
    .replace(/\{[\s\S]*"\$schema"[\s\S]*\}/g, " ")
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}[]+|[^\p{L}\p{N}\]]+$/gu, ""))
    .filter((w) => w.length > 0 && w.length < 30);
  return words.length > 0 ? words : ["lorem", "ipsum", "dolor", "sit", "amet"];
}

/** The text the prompt shows after a citation handle such as `[S2]`, up to the next handle. */
function passageAfter(prompt: string, handle: string): string | null {
  const at = prompt.indexOf(`[${handle}]`);
  if (at < 0) return null;
  const rest = prompt.slice(at + handle.length + 2);
  const end = rest.search(/\n\[S\d+\]/);
  return (end < 0 ? rest : rest.slice(0, end)).replace(/^[^\n]*\n/, "").trim() || null;
}

/**
 * The handle (`S1`, `S2`…) of the first passage in the prompt whose text contains `phrase`, for
 * responders that cite like a grounded model. Passages are the lines that open with a handle, up to
 * the next one or a blank line before the question.
 */
export function handleHolding(prompt: string, phrase: string): string | null {
  for (const m of prompt.matchAll(/^\[(S\d+)\][^\n]*\n([\s\S]*?)(?=^\[S\d+\]|\n\nQuestion:|$(?![\s\S]))/gm)) {
    if (m[2]!.includes(phrase)) return m[1]!;
  }
  return null;
}

class InstanceBuilder {
  private cursor = 0;
  constructor(
    private readonly words: string[],
    private readonly prompt = "",
  ) {}

  /**
   * A paragraph that cites handles (`{text, sources: [enum of handles]}`) quotes the first passage
   * it cites, as a grounded model would; other strings come from the prompt's vocabulary.
   */
  private groundedParagraph(schema: JsonSchema, index: number): Record<string, unknown> | null {
    const sources = schema.properties?.sources;
    const items = sources?.items;
    const handles: string[] | undefined =
      items?.enum ??
      items?.anyOf?.map((o: JsonSchema) => o.const) ??
      ("const" in (items ?? {}) ? [items.const] : undefined);
    if (!schema.properties?.text || !handles || handles.length === 0) return null;
    const handle = handles[index % handles.length]!;
    const quoted = passageAfter(this.prompt, handle);
    if (!quoted) return null;
    const minLength = schema.properties.text.minLength ?? 0;
    let text = quoted.split(/\s+/).slice(0, 60).join(" ");
    while (text.length < minLength) text += ` ${text}`;
    const maxLength = schema.properties.text.maxLength ?? Number.POSITIVE_INFINITY;
    return { text: text.slice(0, maxLength), sources: [handle] };
  }

  private text(minLength = 0, maxLength = Number.POSITIVE_INFINITY): string {
    const target = minLength > 0 ? Math.ceil(minLength * 1.2) : 0;
    const out: string[] = [];
    let len = 0;
    const minWords = 30;
    while ((len < target || out.length < minWords) && len < maxLength) {
      const w = this.words[this.cursor++ % this.words.length]!;
      out.push(w);
      len += w.length + 1;
    }
    let s = out.join(" ");
    if (s.length > maxLength) s = s.slice(0, maxLength);
    while (s.length < minLength) s += " x";
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  private asked = new Set<string>();

  private question(): string {
    let w = this.words[this.cursor++ % this.words.length]!;
    // A word without letters ("21.4") is no subject: questions about two of them would read as one.
    const subject = (x: string) =>
      x.length >= 4 && /\p{L}/u.test(x) && !isStopword(x) && !this.asked.has(x.toLowerCase());
    for (let i = 0; i < this.words.length && !subject(w); i++) w = this.words[this.cursor++ % this.words.length]!;
    this.asked.add(w.toLowerCase());
    return `Why does ${w} matter?`;
  }

  /** A content word of the prompt, in turn: what a real item is about. */
  private word(): string {
    let w = this.words[this.cursor++ % this.words.length]!;
    for (let i = 0; i < this.words.length && (w.length < 4 || isStopword(w) || !/^\p{L}+$/u.test(w)); i++)
      w = this.words[this.cursor++ % this.words.length]!;
    return w.toLowerCase();
  }

  /** A whole statement from the prompt's words, as a rubric point or a step is: a capital, a verb, a full stop. */
  private statement(): string {
    const s = `The ${this.word()} is the ${this.word()} of the ${this.word()} ${this.word()}.`;
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  private cards = 0;

  /** A flashcard that defines: the front a key concept the prompt lists (then a word of it), the back saying what it is. */
  private card(): { front: string; back: string } {
    const concepts = [...this.prompt.matchAll(/^Key concepts: (.+)$/gm)].flatMap((m) =>
      m[1]!.split(";").map((c) => c.trim()),
    );
    const term = concepts[this.cards++] ?? this.word();
    return { front: term, back: `${term} is a ${this.word()} that ${this.word()} the ${this.word()} ${this.word()}.` };
  }

  build(schema: JsonSchema, index = 0): unknown {
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum[index % schema.enum.length];
    const options = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(options)) return this.build(options[index % options.length], index);
    if (Array.isArray(schema.allOf))
      return Object.assign({}, ...schema.allOf.map((s: JsonSchema) => this.build(s, index)));
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case "object": {
        const grounded = this.groundedParagraph(schema, index);
        if (grounded) return grounded;
        // Items a teacher would show (the server's item checks read them): cards that define, whole rubric points and steps.
        if (schema.properties?.front && schema.properties?.back) return this.card();
        const out: Record<string, unknown> = {};
        for (const [key, sub] of Object.entries<JsonSchema>(schema.properties ?? {})) {
          // A question's prompt asks about one word of its own, so the questions of a reply differ as a model's would.
          if (key === "prompt" && sub.type === "string") out[key] = this.question();
          else if ((key === "rubric" || key === "steps") && sub.type === "array")
            out[key] = Array.from({ length: Math.min(sub.maxItems ?? 3, Math.max(sub.minItems ?? 0, 3)) }, () =>
              this.statement(),
            );
          else out[key] = this.build(sub, index);
        }
        return out;
      }
      case "array": {
        const min = schema.minItems ?? 0;
        const max = schema.maxItems ?? Number.POSITIVE_INFINITY;
        const n = Math.min(max, Math.max(min, 3));
        const item: JsonSchema = schema.items ?? { type: "string" };
        if (item.type === "string" && !item.enum && !("const" in item)) {
          // Numbered so that items differ (choices, fronts), within the length limits.
          const max = (item.maxLength ?? Number.POSITIVE_INFINITY) - 4;
          return Array.from({ length: n }, (_, i) => `${this.text(item.minLength ?? 0, max)} ${i + 1}`);
        }
        return Array.from({ length: n }, (_, i) => this.build(item, i));
      }
      case "string":
        return this.text(schema.minLength ?? 0, schema.maxLength ?? Number.POSITIVE_INFINITY);
      case "integer":
      case "number": {
        const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
        return schema.maximum !== undefined ? Math.min(min, schema.maximum) : min;
      }
      case "boolean":
        return true;
      case "null":
        return null;
      default:
        return this.text();
    }
  }
}

/** A deterministic instance of `schema` with strings drawn from `prompt`. */
export function instanceFor(schema: JsonSchema, prompt: string): unknown {
  return new InstanceBuilder(promptWords(prompt), prompt).build(schema);
}

/** Deterministic embedding: hashed bag of words, L2-normalised. */
export function fakeEmbedding(text: string, dims = EMBED_DIMENSIONS): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 0x811c9dc5;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
    v[(h >>> 0) % dims]! += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

// ---------------------------------------------------------------------------------------------
// Misbehaviour shared with the OpenAI-compatible fake

export class Behaviour {
  mode: FakeMode = "ok";
  remaining = Number.POSITIVE_INFINITY;
  latencyMs: number;
  responder: Responder | null = null;

  constructor(latencyMs = 0) {
    this.latencyMs = latencyMs;
  }

  set(mode: FakeMode, times?: number) {
    this.mode = mode;
    this.remaining = times ?? Number.POSITIVE_INFINITY;
  }

  /** The mode for this call, counting it down. */
  take(): FakeMode {
    if (this.mode === "ok") return "ok";
    const mode = this.mode;
    this.remaining -= 1;
    if (this.remaining <= 0) this.set("ok");
    return mode;
  }

  peek(): FakeMode {
    return this.mode;
  }
}

export const REFUSAL_TEXT = "I'm sorry, but I can't help with that request.";

/** The reply text for one generation call under `mode`. */
export function replyText(mode: FakeMode, schema: JsonSchema | null, prompt: string, custom?: string): string {
  if (mode === "refuse") return REFUSAL_TEXT;
  if (mode === "invalid_json") return "Sure! Here is what you asked for: title = course, chapters = many.";
  if (custom !== undefined) return custom;
  if (!schema) return promptWords(prompt).slice(0, 60).join(" ");
  if (mode === "schema_violation") return JSON.stringify({ unexpected: true, title: 42 });
  const json = JSON.stringify(instanceFor(schema, prompt), null, 1);
  if (mode === "fenced") return `\`\`\`json\n${json.replace(/\n}$/, ",\n}")}\n\`\`\``;
  if (mode === "truncated") return json.slice(0, Math.max(1, json.lastIndexOf('"')));
  return json;
}

export const approxTokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

export function chatPrompt(body: Record<string, any>): string {
  if (Array.isArray(body.messages)) return body.messages.map((m: { content?: string }) => m.content ?? "").join("\n");
  return [body.system, body.prompt].filter(Boolean).join("\n");
}

/** The last user message: what strings in the reply are made of. */
export function userText(body: Record<string, any>): string {
  if (Array.isArray(body.messages)) {
    const users = body.messages.filter((m: { role?: string }) => m.role === "user");
    return users[0]?.content ?? "";
  }
  return body.prompt ?? "";
}

// ---------------------------------------------------------------------------------------------
// The server

export function startFakeOllama(opts: FakeOllamaOptions = {}): FakeOllama {
  const behaviour = new Behaviour(opts.latencyMs ?? 0);
  const calls: RecordedCall[] = [];
  const models = opts.models ?? DEFAULT_MODELS;
  const hanging = new Set<() => void>();

  const json = (data: unknown, status = 200) => Response.json(data, { status });
  const failure = (mode: FakeMode): Response | null => {
    if (mode === "rate_limit") return json({ error: "too many requests, slow down" }, 429);
    if (mode === "down") return json({ error: "server overloaded" }, 503);
    return null;
  };
  const hang = () =>
    new Promise<Response>((resolve) => {
      const release = () => resolve(json({ error: "fake server closing" }, 503));
      hanging.add(release);
    });

  async function generation(
    path: "chat" | "generate",
    body: Record<string, any>,
    record: RecordedCall,
  ): Promise<Response> {
    const mode = behaviour.take();
    if (mode === "hang") return hang();
    const failed = failure(mode);
    if (failed) return failed;
    const model = body.model ?? models[0];
    if (!models.some((m) => m === model || m === `${model}:latest`)) {
      return json({ error: `model "${model}" not found, try pulling it first` }, 404);
    }
    const schema = body.format && typeof body.format === "object" ? body.format : null;
    const prompt = chatPrompt(body);
    const custom = behaviour.responder?.({ path, body, prompt });
    const text = replyText(mode, schema, userText(body) || prompt, custom);
    record.reply = text;
    const stats = {
      done: true,
      done_reason: "stop",
      total_duration: 1_000_000,
      load_duration: 1000,
      prompt_eval_count: approxTokens(prompt),
      prompt_eval_duration: 1000,
      eval_count: approxTokens(text),
      eval_duration: 1000,
    };
    const created_at = new Date().toISOString();
    const piece = (content: string, done: boolean) =>
      path === "chat"
        ? { model, created_at, message: { role: "assistant", content }, done }
        : { model, created_at, response: content, done };
    if (body.stream === false) return json({ ...piece(text, true), ...stats });
    // NDJSON stream: the text in a few pieces, then the closing stats.
    const size = Math.max(1, Math.ceil(text.length / 5));
    const lines: string[] = [];
    for (let i = 0; i < text.length; i += size) lines.push(JSON.stringify(piece(text.slice(i, i + size), false)));
    lines.push(JSON.stringify({ ...piece("", true), ...stats }));
    return new Response(`${lines.join("\n")}\n`, { headers: { "content-type": "application/x-ndjson" } });
  }

  let answering = 0;
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: opts.port ?? 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const body = req.method === "POST" ? ((await req.json().catch(() => null)) as Record<string, any> | null) : null;
      const record: RecordedCall = { path: url.pathname, method: req.method, body, at: Date.now(), beside: answering };
      calls.push(record);
      answering++;
      try {
        if (behaviour.latencyMs > 0) await sleep(behaviour.latencyMs);
      } finally {
        answering--;
      }
      switch (url.pathname) {
        case "/api/version":
        case "/api/tags": {
          const failed = failure(behaviour.peek());
          if (failed) return failed;
          if (url.pathname === "/api/version") return json({ version: "0.9.0-fake" });
          return json({
            models: models.map((name) => ({
              name,
              model: name,
              modified_at: new Date(0).toISOString(),
              size: 1,
              digest: "fake",
              details: { format: "gguf", family: "fake", parameter_size: "1B", quantization_level: "Q4" },
            })),
          });
        }
        case "/api/chat":
          return generation("chat", body ?? {}, record);
        case "/api/generate":
          return generation("generate", body ?? {}, record);
        case "/api/embed": {
          // Only transport failures apply to embeddings; reply-shape modes are left for generations.
          const pending = behaviour.peek();
          if (pending === "hang" || pending === "rate_limit" || pending === "down") {
            behaviour.take();
            if (pending === "hang") return hang();
            return failure(pending)!;
          }
          const input: string[] = Array.isArray(body?.input) ? body.input : [String(body?.input ?? "")];
          return json({
            model: body?.model,
            embeddings: input.map((t) => fakeEmbedding(t)),
            prompt_eval_count: input.reduce((n, t) => n + approxTokens(t), 0),
          });
        }
        default:
          return json({ error: "not found" }, 404);
      }
    },
  });

  const port = server.port!;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    calls,
    behave: (mode, times) => behaviour.set(mode, times),
    setLatency: (ms) => {
      behaviour.latencyMs = ms;
    },
    respondWith: (responder) => {
      behaviour.responder = responder;
    },
    generations: () => calls.filter((c) => c.path === "/api/chat" || c.path === "/api/generate"),
    async close() {
      for (const release of hanging) release();
      hanging.clear();
      await server.stop(true);
    },
  };
}

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const fake = startFakeOllama({
    port: Number(argValue(args, "--port") ?? 11434),
    latencyMs: Number(argValue(args, "--latency-ms") ?? 0),
    models: argValue(args, "--models")?.split(","),
  });
  console.log(`fake-ollama listening on ${fake.url}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
