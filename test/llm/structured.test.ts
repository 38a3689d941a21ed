import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { createLlm } from "../../src/llm/create.ts";
import { parseJsonReply } from "../../src/llm/repair.ts";
import { ChapterSchema } from "../../src/llm/schemas.ts";
import type { Llm } from "../../src/llm/types.ts";
import { UsageMeter } from "../../src/llm/usage.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake-ollama.ts";
import { fast, llmConfig } from "./support.ts";

describe("parseJsonReply", () => {
  test("strips fences and surrounding prose", () => {
    const r = parseJsonReply('Here you go:\n```json\n{"a": [1, 2]}\n```\nHope it helps');
    expect(r).toEqual({ ok: true, value: { a: [1, 2] }, repaired: true });
  });
  test("repairs trailing commas, single quotes and truncation", () => {
    expect(parseJsonReply('{"a": [1, 2,], "b": "x",}')).toMatchObject({ ok: true, value: { a: [1, 2], b: "x" } });
    expect(parseJsonReply("{'a': 'yes'}")).toMatchObject({ ok: true, value: { a: "yes" } });
    expect(parseJsonReply('{"title": "Tides", "chapters": [{"title": "Moon"}, {"title": "Su')).toMatchObject({
      ok: true,
      value: { title: "Tides", chapters: [{ title: "Moon" }, { title: "Su" }] },
    });
  });
  test("reports prose without JSON", () => {
    expect(parseJsonReply("I think the answer is four.")).toEqual({
      ok: false,
      error: "the reply contains no JSON object",
    });
  });
});

describe("structured output against the fake Ollama", () => {
  let fake: FakeOllama;
  let llm: Llm;
  const Schema = Type.Object({
    title: Type.String({ minLength: 3 }),
    items: Type.Array(Type.String(), { minItems: 2 }),
  });

  beforeAll(async () => {
    fake = startFakeOllama();
    llm = await createLlm(llmConfig({ ollamaHost: [fake.url], llmMaxRetries: 2 }), fast);
  });
  beforeEach(() => {
    fake.behave("ok");
    fake.respondWith(null);
    fake.calls.length = 0;
  });
  afterAll(() => fake.close());

  test("a fenced reply with a trailing comma is repaired without asking again", async () => {
    fake.behave("fenced", 1);
    const out = await llm.generateObject(Schema, "List tide facts");
    expect(Value.Check(Schema, out)).toBe(true);
    expect(fake.generations()).toHaveLength(1);
  });

  test("a truncated reply that still validates once closed is accepted", async () => {
    fake.respondWith(() => '{"title": "Tides and the Moon", "items": ["spring tides", "neap tid');
    const out = await llm.generateObject(Schema, "List tide facts");
    expect(out).toEqual({ title: "Tides and the Moon", items: ["spring tides", "neap tid"] });
    expect(fake.generations()).toHaveLength(1);
  });

  test("numbers as strings and unknown keys are normalised, not re-asked", async () => {
    const S = Type.Object({ answer: Type.Integer(), ok: Type.Boolean() });
    fake.respondWith(() => '{"answer": "2", "ok": "true", "chatter": "hi"}');
    expect(await llm.generateObject(S, "q")).toEqual({ answer: 2, ok: true });
  });

  test("invalid JSON is re-asked with the error, and the second reply is used", async () => {
    fake.behave("invalid_json", 1);
    const meter = new UsageMeter();
    const out = await llm.generateObject(Schema, "List tide facts", { meter });
    expect(Value.Check(Schema, out)).toBe(true);
    const calls = fake.generations();
    expect(calls).toHaveLength(2);
    const retry = calls[1]!.body!.messages;
    expect(retry.at(-2).role).toBe("assistant");
    expect(retry.at(-1).content).toContain("not valid");
    expect(retry.at(-1).content).toContain("no JSON object");
    expect(meter.calls).toBe(2);
  });

  test("a schema violation is re-asked with the validation errors", async () => {
    fake.behave("schema_violation", 2);
    const out = await llm.generateObject(Schema, "List tide facts");
    expect(Value.Check(Schema, out)).toBe(true);
    const calls = fake.generations();
    expect(calls).toHaveLength(3);
    expect(calls[1]!.body!.messages.at(-1).content).toMatch(/\/title: Expected string/);
  });

  test("refine rules are enforced like schema rules", async () => {
    fake.respondWith(({ body }) =>
      body.messages.length === 2
        ? JSON.stringify({ title: "Quiz", items: ["a", "a"] })
        : JSON.stringify({ title: "Quiz", items: ["a", "b"] }),
    );
    const out = await llm.generateObject(Schema, "x", {
      refine: (v) => (new Set(v.items).size < v.items.length ? ["/items: items must differ"] : []),
    });
    expect(out.items).toEqual(["a", "b"]);
    expect(fake.generations()[1]!.body!.messages.at(-1).content).toContain("items must differ");
  });

  test("after LLM_MAX_RETRIES re-asks the call fails with MODEL_OUTPUT_INVALID, never INTERNAL", async () => {
    fake.behave("invalid_json");
    const err = await llm.generateObject(ChapterSchema, "Write a chapter").catch((e) => e);
    expect(err.code).toBe("MODEL_OUTPUT_INVALID");
    expect(err.status).toBe(502);
    expect(err.message).toContain("after 3 attempts");
    expect(err.details.reason).toBe("invalid_output");
    expect(fake.generations()).toHaveLength(3);
  });
});
