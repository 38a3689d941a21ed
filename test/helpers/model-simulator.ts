/**
 * A model simulator for tests: a real HTTP server on 127.0.0.1 speaking Ollama's API (/api/chat,
 * /api/generate, /api/show, /api/tags, /api/version, /api/embed) and the OpenAI-compatible one
 * (/v1/chat/completions, /v1/models), answering as real models do, and misbehaving as they do when
 * the test says so. The chapter prompt's passages ([S1] …) are what it writes from.
 *
 * Each behaviour, and what the server is expected to do about it (test/courses/model-behaviours.test.ts):
 * - `faithful`: quotes the sentences of each passage it cites → kept as written.
 * - `paraphrase`: restates them with WordNet synonyms and reordered clauses ("Put simply, …") → kept.
 * - `fuse`: one paragraph from two passages, citing both → kept.
 * - `invent`: adds a sentence about the subject that no passage holds → that sentence is dropped.
 * - `miscite`: cites, for each paragraph, the passage sharing the fewest words with what it says →
 *   each paragraph re-asked once, then dropped; none left is MODEL_OUTPUT_UNGROUNDED.
 * - `fenced`: the JSON inside markdown fences → repaired, kept.
 * - `think`: a `<think>…</think>` block before the JSON (a reasoning model; with `think: true` the
 *   reasoning comes apart, as Ollama's `thinking`) → the reasoning never reaches the course.
 * - `truncated`: the JSON cut off mid-way → re-asked; MODEL_OUTPUT_INVALID when it never ends.
 * - `malformed`: well-formed JSON holding none of the schema's fields → re-asked with the errors.
 * - `verbose`: ignores length targets (every sentence of every passage, eight quiz questions where
 *   five at most are asked) → kept, the quiz cut to five.
 * - `refuse`: "I can't help with that." → LLM_REFUSED.
 * - `one_speaker`: every podcast turn for the host → PODCAST_SCRIPT_INVALID.
 * - `slow`: answers after `slowMs` → LLM_TIMEOUT when that is past LLM_TIMEOUT_MS.
 * - `silent`: accepts the request and never answers → LLM_TIMEOUT.
 * - `missing_model`: 404 "model not found" → MODEL_NOT_FOUND.
 * - `server_error`: 500 → LLM_UNAVAILABLE once the retries are spent.
 */
import type { Server } from "bun";
import { words } from "../../src/llm/extractive/text.ts";
import { approxTokens, chatPrompt, fakeEmbedding, instanceFor, type RecordedCall, userText } from "./fake-ollama.ts";
import { invent, paraphrase, sentencesOf, topicWords } from "./model-text.ts";

export type SimBehaviour =
  | "faithful"
  | "paraphrase"
  | "fuse"
  | "invent"
  | "miscite"
  | "fenced"
  | "think"
  | "truncated"
  | "malformed"
  | "verbose"
  | "refuse"
  | "one_speaker"
  | "slow"
  | "silent"
  | "missing_model"
  | "server_error";

/** What one generation call asks, for choosing which calls misbehave. */
export interface SimCall {
  prompt: string;
  schema: Record<string, any> | null;
  /** The chapter number of a chapter prompt ("Write chapter 2: …"), else null. */
  chapter: number | null;
  podcast: boolean;
}

export interface SimModel {
  name: string;
  /** Ollama's "thinking" capability (a reasoning model). */
  thinking?: boolean;
}

export interface SimulatorOptions {
  models?: SimModel[];
  /** How long `slow` takes to answer. */
  slowMs?: number;
}

export interface ModelSimulator {
  /** Ollama's base URL (OLLAMA_HOST). */
  url: string;
  /** The OpenAI-compatible base URL, with /v1 (OPENAI_BASE_URL). */
  openaiUrl: string;
  calls: RecordedCall[];
  /**
   * Misbehaves as `behaviour` on the calls `when` accepts (default: chapter prompts), `times`
   * times (default: until told otherwise); other calls get `faithful` answers.
   */
  behave(behaviour: SimBehaviour, opts?: { when?: (call: SimCall) => boolean; times?: number }): void;
  /** Generation calls (either API) answered or refused so far, with what they asked. */
  generations(): (RecordedCall & { sim: SimCall })[];
  close(): Promise<void>;
}

// Sentences from an unrelated text: what the simulator grafts the subject onto when it invents.
const ELSEWHERE =
  "The survey teams recorded seventeen separate readings at the northern station during the winter of 1887. " +
  "Their instruments were later donated to a regional museum that still displays them in its main hall. " +
  "Funding for the expedition came from a consortium of merchants who expected a return within four years.";

interface Passage {
  handle: string;
  text: string;
}

/** The chapter prompt's passages: each `[S1] (where)` line, then its text up to the next handle or the instructions. */
export function passagesOf(prompt: string): Passage[] {
  const out: Passage[] = [];
  const re = /^\[(S\d+)\][^\n]*\n([\s\S]*?)(?=\n\n\[S\d+\]|\n\nWrite the chapter:|$(?![\s\S]))/gm;
  for (const m of prompt.matchAll(re)) out.push({ handle: m[1]!, text: m[2]!.trim() });
  return out;
}

const chapterOf = (prompt: string) => {
  const m = /^Write chapter (\d+):/m.exec(prompt);
  return m ? Number(m[1]) : null;
};

/** The sentences of a passage worth restating (prose of six words or more), at most `n`. */
const proseOf = (text: string, n = 2) =>
  sentencesOf(text)
    .filter((s) => words(s).length >= 6 && !/^#|\|/.test(s))
    .slice(0, n);

type Paragraph = { text: string; sources: string[] };

function paragraphs(behaviour: SimBehaviour, passages: Passage[]): Paragraph[] {
  const usable = passages.filter((p) => proseOf(p.text).length > 0);
  // The passage sharing the fewest words with `p`: one that does not say what `p` says.
  const far = (p: Passage) => {
    const own = new Set(words(p.text.toLowerCase()));
    const shared = (q: Passage) => words(q.text.toLowerCase()).filter((w) => own.has(w)).length;
    return usable.filter((q) => q !== p).sort((a, b) => shared(a) - shared(b))[0] ?? p;
  };
  switch (behaviour) {
    case "paraphrase":
      return usable.map((p, i) => ({
        text: proseOf(p.text)
          .map((s, k) => paraphrase(s, i + k))
          .join(" "),
        sources: [p.handle],
      }));
    case "fuse":
      return usable.flatMap((p, i) => {
        if (i % 2 === 1) return [];
        const next = usable[i + 1];
        const text = [p, next].flatMap((q) => (q ? [paraphrase(proseOf(q.text, 1)[0]!, i)] : [])).join(" ");
        return [{ text, sources: next ? [p.handle, next.handle] : [p.handle] }];
      });
    case "invent":
      return usable.map((p, i) => ({
        text: [...proseOf(p.text), ...(i === 0 ? [invent(p.text, ELSEWHERE)] : [])].join(" "),
        sources: [p.handle],
      }));
    case "miscite":
      return usable.map((p) => ({ text: proseOf(p.text).join(" "), sources: [far(p).handle] }));
    case "verbose":
      return usable.map((p) => ({ text: proseOf(p.text, 100).join(" "), sources: [p.handle] }));
    default:
      return usable.map((p) => ({ text: proseOf(p.text).join(" "), sources: [p.handle] }));
  }
}

/** A chapter reply: paragraphs written from the passages as `behaviour` says, two to a section. */
function chapterReply(behaviour: SimBehaviour, schema: Record<string, any>, prompt: string): Record<string, unknown> {
  const base = instanceFor(schema, prompt) as Record<string, any>;
  const passages = passagesOf(prompt);
  const written = paragraphs(behaviour, passages);
  if (written.length === 0) return base;
  const sections: { heading: string; paragraphs: Paragraph[] }[] = [];
  for (let i = 0; i < written.length; i += 2) {
    const part = written.slice(i, i + 2);
    const topic = topicWords(part.map((p) => p.text).join(" "));
    sections.push({ heading: `About ${topic.join(" and ") || `part ${i / 2 + 1}`}`, paragraphs: part });
  }
  const concepts = [...new Set(topicWords(passages.map((p) => p.text).join(" ")))];
  const reply: Record<string, unknown> = {
    ...base,
    sections: sections.slice(0, 10),
    key_concepts: concepts.length >= 3 ? concepts : base.key_concepts,
  };
  if (behaviour === "verbose") {
    const question = schema.properties.quiz.properties.questions.items;
    reply.quiz = { questions: instanceFor({ type: "array", items: question, minItems: 8 }, prompt) };
  }
  return reply;
}

/** A podcast script whose every turn the host speaks. */
function oneSpeakerScript(schema: Record<string, any>, prompt: string): unknown {
  const script = instanceFor(schema, prompt) as { turns?: { speaker: string }[] };
  for (const t of script.turns ?? []) t.speaker = "host";
  return script;
}

/** Words only the simulator's reasoning holds: finding them in a course means reasoning leaked into it. */
export const REASONING_MARK = "Scratchpad draft heading";

const isChapterSchema = (schema: Record<string, any> | null) =>
  Boolean(schema?.properties?.sections && schema.properties.quiz);
const isPodcastSchema = (schema: Record<string, any> | null) => Boolean(schema?.properties?.turns);

/**
 * How a reasoning model shows its reasoning: inside the content as `<think>…</think>`, apart from
 * it (Ollama's `thinking`, OpenAI-compatible servers' `reasoning_content`), or not at all.
 */
type Reasoning = "inline" | "apart" | "none";

/** The reply text (and any separate reasoning) for one generation call. */
function replyFor(behaviour: SimBehaviour, call: SimCall, reasoning: Reasoning): { text: string; reasoning?: string } {
  if (behaviour === "refuse") return { text: "I can't help with that." };
  const { schema, prompt } = call;
  let text: string;
  if (!schema) text = words(prompt).slice(0, 60).join(" ");
  else if (behaviour === "malformed") text = JSON.stringify({ reply: words(prompt).slice(0, 40).join(" ") });
  else {
    const value = isChapterSchema(schema)
      ? chapterReply(behaviour, schema, prompt)
      : behaviour === "one_speaker" && isPodcastSchema(schema)
        ? oneSpeakerScript(schema, prompt)
        : instanceFor(schema, prompt);
    text = JSON.stringify(value, null, 1);
    if (behaviour === "fenced") return { text: `Here is the chapter:\n\`\`\`json\n${text}\n\`\`\`` };
    if (behaviour === "truncated") return { text: text.slice(0, Math.floor(text.length * 0.6)) };
  }
  const thought = `The user wants ${call.chapter ? `chapter ${call.chapter}` : "an answer"}. Draft: {"sections": [{"heading": "${REASONING_MARK}"}]}. I will now answer.`;
  if (reasoning === "inline") return { text: `<think>\n${thought}\n</think>\n${text}` };
  if (reasoning === "apart") return { text, reasoning: thought };
  return { text };
}

/** A streamed reply in a few pieces, cut anywhere (inside a tag too), as servers send them. */
const piecesOf = (text: string) => {
  const size = Math.max(1, Math.ceil(text.length / 7));
  return Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
};

export function startModelSimulator(opts: SimulatorOptions = {}): ModelSimulator {
  const models = opts.models ?? [{ name: "llama3.2:latest" }, { name: "qwen3:8b", thinking: true }];
  const slowMs = opts.slowMs ?? 2000;
  const calls: (RecordedCall & { sim?: SimCall })[] = [];
  const hanging = new Set<() => void>();
  let rule: { behaviour: SimBehaviour; when: (c: SimCall) => boolean; remaining: number } | null = null;

  const json = (data: unknown, status = 200) => Response.json(data, { status });
  const modelOf = (name: string) => models.find((m) => m.name === name || m.name === `${name}:latest`);

  /** The behaviour for this call, counting a limited rule down. */
  function behaviourFor(call: SimCall): SimBehaviour {
    if (!rule?.when(call)) return "faithful";
    const b = rule.behaviour;
    if (--rule.remaining <= 0) rule = null;
    return b;
  }

  type Outcome =
    | { kind: "reply"; text: string; reasoning?: string; model: string }
    | { kind: "error"; status: number; message: string }
    | { kind: "hang" };

  /** One generation call under either API, before it is put in that API's shape. */
  async function generate(record: RecordedCall & { sim?: SimCall }, api: "ollama" | "openai"): Promise<Outcome> {
    const body = record.body ?? {};
    const schema =
      api === "ollama"
        ? body.format && typeof body.format === "object"
          ? body.format
          : null
        : body.response_format?.type === "json_schema"
          ? body.response_format.json_schema?.schema
          : null;
    const prompt = userText(body) || chatPrompt(body);
    const sim: SimCall = { prompt, schema, chapter: chapterOf(prompt), podcast: isPodcastSchema(schema) };
    record.sim = sim;
    const behaviour = behaviourFor(sim);
    const model = modelOf(body.model);
    if (behaviour === "missing_model" || !model) {
      return { kind: "error", status: 404, message: `model "${body.model}" not found, try pulling it first` };
    }
    if (behaviour === "server_error")
      return { kind: "error", status: 500, message: "llama runner process has terminated" };
    if (behaviour === "silent") return { kind: "hang" };
    if (behaviour === "slow") await Bun.sleep(slowMs);
    if (api === "ollama" && body.think !== undefined && !model.thinking) {
      return { kind: "error", status: 400, message: `"${body.model}" does not support thinking` };
    }
    // A reasoning model reasons inline unless told not to (`think: false`) or to keep it apart
    // (`think: true`); the `think` behaviour is one that reasons inline whatever it is told.
    const reasoning: Reasoning =
      behaviour === "think"
        ? "inline"
        : !model.thinking || body.think === false
          ? "none"
          : body.think
            ? "apart"
            : "inline";
    const reply = replyFor(behaviour, sim, api === "openai" && reasoning === "apart" ? "inline" : reasoning);
    return { kind: "reply", model: model.name, ...reply };
  }

  const hang = () =>
    new Promise<Response>((resolve) => hanging.add(() => resolve(json({ error: "simulator closing" }, 503))));

  async function ollamaGeneration(path: "chat" | "generate", record: RecordedCall): Promise<Response> {
    const body = record.body ?? {};
    const out = await generate(record, "ollama");
    if (out.kind === "hang") return hang();
    if (out.kind === "error") return json({ error: out.message }, out.status);
    const created_at = new Date().toISOString();
    const stats = {
      done: true,
      done_reason: "stop",
      prompt_eval_count: approxTokens(chatPrompt(body)),
      eval_count: approxTokens(out.text),
    };
    const piece = (content: string, thinking?: string) =>
      path === "chat"
        ? { model: out.model, created_at, message: { role: "assistant", content, ...(thinking ? { thinking } : {}) } }
        : { model: out.model, created_at, response: content, ...(thinking ? { thinking } : {}) };
    if (body.stream === false) return json({ ...piece(out.text, out.reasoning), ...stats });
    const lines = [
      ...(out.reasoning ? [{ ...piece("", out.reasoning), done: false }] : []),
      ...piecesOf(out.text).map((p) => ({ ...piece(p), done: false })),
      { ...piece(""), ...stats },
    ];
    return new Response(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`, {
      headers: { "content-type": "application/x-ndjson" },
    });
  }

  async function openaiCompletion(record: RecordedCall): Promise<Response> {
    const body = record.body ?? {};
    const out = await generate(record, "openai");
    if (out.kind === "hang") return hang();
    if (out.kind === "error") return json({ error: { message: out.message, code: out.status } }, out.status);
    const usage = { prompt_tokens: approxTokens(chatPrompt(body)), completion_tokens: approxTokens(out.text) };
    const base = { id: "chatcmpl-sim", created: Math.floor(Date.now() / 1000), model: out.model };
    const message = {
      role: "assistant",
      content: out.text,
      ...(out.reasoning ? { reasoning_content: out.reasoning } : {}),
    };
    if (!body.stream) {
      return json({
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: "stop" }],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      });
    }
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const content = piecesOf(out.text).map((p) => chunk({ content: p }, null));
    return new Response(`${content.join("")}${chunk({}, "stop")}data: [DONE]\n\n`, {
      headers: { "content-type": "text/event-stream" },
    });
  }

  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const body = req.method === "POST" ? ((await req.json().catch(() => null)) as Record<string, any> | null) : null;
      const record: RecordedCall = { path: url.pathname, method: req.method, body, at: Date.now(), beside: 0 };
      calls.push(record);
      switch (url.pathname) {
        case "/api/version":
          return json({ version: "0.12.0-simulator" });
        case "/api/tags":
          return json({
            models: models.map((m) => ({
              name: m.name,
              model: m.name,
              modified_at: new Date(0).toISOString(),
              size: 1,
            })),
          });
        case "/api/show": {
          const model = modelOf(body?.model ?? body?.name ?? "");
          if (!model) return json({ error: `model '${body?.model}' not found` }, 404);
          return json({
            modelfile: "",
            parameters: "",
            template: "",
            details: { format: "gguf", family: "simulated", parameter_size: "8B", quantization_level: "Q4_K_M" },
            model_info: {},
            capabilities: ["completion", ...(model.thinking ? ["thinking"] : [])],
          });
        }
        case "/api/chat":
          return ollamaGeneration("chat", record);
        case "/api/generate":
          return ollamaGeneration("generate", record);
        case "/api/embed": {
          const input: string[] = Array.isArray(body?.input) ? body.input : [String(body?.input ?? "")];
          return json({ model: body?.model, embeddings: input.map((t) => fakeEmbedding(t)) });
        }
        case "/v1/models":
          return json({ object: "list", data: models.map((m) => ({ id: m.name, object: "model", owned_by: "sim" })) });
        case "/v1/chat/completions":
          return openaiCompletion(record);
        default:
          return json({ error: "not found" }, 404);
      }
    },
  });

  const url = `http://127.0.0.1:${server.port}`;
  const isGeneration = (c: RecordedCall) =>
    c.path === "/api/chat" || c.path === "/api/generate" || c.path === "/v1/chat/completions";
  return {
    url,
    openaiUrl: `${url}/v1`,
    calls,
    behave(behaviour, o = {}) {
      rule = { behaviour, when: o.when ?? ((c) => c.chapter !== null), remaining: o.times ?? Number.POSITIVE_INFINITY };
    },
    generations: () => calls.filter((c) => isGeneration(c) && c.sim) as (RecordedCall & { sim: SimCall })[],
    async close() {
      for (const release of hanging) release();
      hanging.clear();
      await server.stop(true);
    },
  };
}
