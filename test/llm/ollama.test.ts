import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../../src/errors.ts";
import { listModelKeys, resolveModelKey, UsageMeter } from "../../src/llm/artefacts.ts";
import { createLlm } from "../../src/llm/create.ts";
import { outlineSchema } from "../../src/llm/schemas.ts";
import type { Llm } from "../../src/llm/types.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake-ollama.ts";
import { fast, llmConfig } from "./support.ts";

let fake: FakeOllama;
let llm: Llm;

beforeAll(async () => {
  fake = startFakeOllama();
  llm = await createLlm(llmConfig({ ollamaHost: [fake.url] }), fast);
});
afterAll(() => fake.close());

describe("ollama provider through the real ollama client", () => {
  test("generateObject sends the JSON schema as format with per-task options and returns a valid object", async () => {
    const meter = new UsageMeter();
    const schema = outlineSchema(3);
    const before = fake.calls.length;
    const out = await llm.generateObject(
      schema,
      { system: "You plan courses.", user: "Plan a course about tides" },
      { task: "outline", meter },
    );
    expect(Value.Check(schema, out)).toBe(true);
    expect(out.chapters).toHaveLength(3);
    // The first call of a model asks /api/show what it can do (see the `think` setting).
    const call = fake.calls.slice(before).find((c) => c.path !== "/api/show")!;
    expect(call.path).toBe("/api/chat");
    expect(call.body!.stream).toBe(false);
    expect(call.body!.format).toEqual(JSON.parse(JSON.stringify(schema)));
    expect(call.body!.keep_alive).toBe("7m");
    expect(call.body!.options.temperature).toBe(0.3);
    expect(call.body!.options.num_ctx).toBeGreaterThanOrEqual(2048);
    expect(call.body!.options.num_predict).toBe(1500);
    expect(call.body!.messages[0].role).toBe("system");
    expect(call.body!.messages[1].content).toBe("Plan a course about tides");
    expect(meter.calls).toBe(1);
    expect(meter.promptTokens).toBeGreaterThan(0);
    expect(meter.completionTokens).toBeGreaterThan(0);
    expect(meter.engine).toBe("ollama");
    expect(meter.model).toBe("llama3.2");
  });

  test("tasks get different temperatures; every call asks for the same context window, so Ollama never reloads the model", async () => {
    const before = fake.calls.length;
    await llm.generateText("short", { task: "podcast" });
    await llm.generateText("long ".repeat(8000), { task: "answer" });
    const [a, b] = fake.calls.slice(before);
    expect(a!.body!.options.temperature).toBe(0.7);
    expect(b!.body!.options.temperature).toBe(0.1);
    expect([a!.body!.options.num_ctx, b!.body!.options.num_ctx]).toEqual([8192, 8192]);
  });

  test("generateText returns the reply text and counts tokens", async () => {
    const meter = new UsageMeter();
    const text = await llm.generateText("Say something about volcanoes", { meter });
    expect(text).toContain("volcanoes");
    expect(meter.calls).toBe(1);
    expect(meter.totalTokens).toBeGreaterThan(0);
  });

  test("streamText yields several pieces that add up to the reply, and meters at the end", async () => {
    const meter = new UsageMeter();
    const pieces: string[] = [];
    for await (const p of llm.streamText("Stream about glaciers and ice ages", { meter })) pieces.push(p);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toContain("glaciers");
    const call = fake.calls.at(-1)!;
    expect(call.body!.stream).toBe(true);
    expect(meter.calls).toBe(1);
    expect(meter.completionTokens).toBeGreaterThan(0);
  });

  test("a model override is sent as the model", async () => {
    const meter = new UsageMeter();
    await llm.generateObject(Type.Object({ a: Type.String() }), "x", { model: "qwen2.5:7b", meter });
    expect(fake.calls.at(-1)!.body!.model).toBe("qwen2.5:7b");
    expect(meter.model).toBe("qwen2.5:7b");
  });

  test("models are listed without :latest, plus extractive; keys resolve or are a 422", async () => {
    expect(await llm.listModels()).toEqual(["llama3.2", "qwen2.5:7b"]);
    expect(await listModelKeys(llm)).toEqual(["llama3.2", "qwen2.5:7b", "extractive"]);
    expect(await resolveModelKey(llm)).toBe("llama3.2");
    expect(await resolveModelKey(llm, "llama3.2:latest")).toBe("llama3.2");
    expect(await resolveModelKey(llm, "qwen2.5:7b")).toBe("qwen2.5:7b");
    expect(await resolveModelKey(llm, "extractive")).toBe("extractive");
    const err = await resolveModelKey(llm, "gpt-17").catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(422);
    expect(err.details.known).toContain("qwen2.5:7b");
  });

  test("health reports each host with its version", async () => {
    const h = await llm.health();
    expect(h).toMatchObject({ ok: true, engine: "ollama", model: "llama3.2" });
    expect(h.endpoints).toEqual([{ url: fake.url, ok: true, version: "0.9.0-fake" }]);
    expect(llm.describe()).toMatchObject({ engine: "ollama", model: "llama3.2", endpoints: [fake.url] });
  });

  test("/api/generate and /api/embed answer like Ollama (used by other engineers' tests)", async () => {
    const { Ollama } = await import("ollama");
    const client = new Ollama({ host: fake.url });
    const gen = await client.generate({ model: "llama3.2", prompt: "Describe rivers", stream: false });
    expect(gen.response).toContain("rivers");
    expect(gen.eval_count).toBeGreaterThan(0);
    const emb = await client.embed({ model: "nomic-embed-text", input: ["a river", "a river", "the stock market"] });
    expect(emb.embeddings).toHaveLength(3);
    expect(emb.embeddings[0]).toHaveLength(384);
    expect(emb.embeddings[0]).toEqual(emb.embeddings[1]!);
    expect(emb.embeddings[0]).not.toEqual(emb.embeddings[2]!);
  });
});

describe("fake Ollama as a standalone process", () => {
  test("`bun test/helpers/fake-ollama.ts --port 0 --latency-ms 80` serves with the given latency", async () => {
    const script = new URL("../helpers/fake-ollama.ts", import.meta.url).pathname;
    const proc = Bun.spawn([process.execPath, script, "--port", "0", "--latency-ms", "80"], { stdout: "pipe" });
    try {
      const reader = proc.stdout.getReader();
      let out = "";
      while (!out.includes("\n")) out += new TextDecoder().decode((await reader.read()).value);
      const url = /listening on (\S+)/.exec(out)![1]!;
      const standalone = await createLlm(llmConfig({ llmProvider: "auto", ollamaHost: [url] }), fast);
      expect(standalone.engine).toBe("ollama");
      const started = performance.now();
      expect(await standalone.generateText("hello from another process")).toContain("another");
      expect(performance.now() - started).toBeGreaterThanOrEqual(75);
    } finally {
      proc.kill();
      await proc.exited;
    }
  });
});
