import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { listModelKeys, resolveModelKey, UsageMeter } from "../../src/llm/artefacts.ts";
import { createLlm } from "../../src/llm/create.ts";
import { StudyGuideSchema } from "../../src/llm/schemas.ts";
import type { Llm } from "../../src/llm/types.ts";
import { type FakeOpenAi, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { fast, llmConfig } from "./support.ts";

let fake: FakeOpenAi;
let llm: Llm;
beforeAll(async () => {
  fake = startFakeOpenAi({ apiKey: "sk-local" });
  llm = await createLlm(
    llmConfig({
      llmProvider: "openai",
      openaiBaseUrl: fake.url,
      openaiApiKey: "sk-local",
      llmModel: "qwen2.5-7b-instruct",
    }),
    fast,
  );
});
afterAll(() => fake.close());

describe("OpenAI-compatible provider", () => {
  test("generateObject asks with response_format json_schema and validates the reply", async () => {
    const meter = new UsageMeter();
    const out = await llm.generateObject(StudyGuideSchema, "Study guide for tides", { task: "study_guide", meter });
    expect(Value.Check(StudyGuideSchema, out)).toBe(true);
    const body = fake.calls.at(-1)!.body!;
    expect(body.response_format.type).toBe("json_schema");
    expect(body.response_format.json_schema.schema).toEqual(JSON.parse(JSON.stringify(StudyGuideSchema)));
    expect(body.model).toBe("qwen2.5-7b-instruct");
    expect(body.temperature).toBe(0.2);
    expect(body.max_tokens).toBe(3000);
    expect(meter).toMatchObject({ calls: 1, engine: "openai", model: "qwen2.5-7b-instruct" });
    expect(meter.promptTokens).toBeGreaterThan(0);
  });

  test("generateText and streamText (SSE) return the text; usage comes from the final chunk", async () => {
    expect(await llm.generateText("Talk about comets")).toContain("comets");
    const meter = new UsageMeter();
    const pieces: string[] = [];
    for await (const p of llm.streamText("Talk about asteroids", { meter })) pieces.push(p);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toContain("asteroids");
    expect(fake.calls.at(-1)!.body!.stream).toBe(true);
    expect(meter.completionTokens).toBeGreaterThan(0);
  });

  test("models come from /v1/models", async () => {
    expect(await listModelKeys(llm)).toEqual(["llama-3.1-8b", "qwen2.5-7b-instruct", "extractive"]);
    expect(await resolveModelKey(llm, "llama-3.1-8b")).toBe("llama-3.1-8b");
    expect((await resolveModelKey(llm, "nope").catch((e) => e)).status).toBe(422);
    expect(await llm.health()).toMatchObject({ ok: true, engine: "openai", endpoints: [{ url: fake.url, ok: true }] });
  });

  test("invalid JSON is re-asked here too", async () => {
    fake.calls.length = 0;
    fake.behave("invalid_json", 1);
    const out = await llm.generateObject(StudyGuideSchema, "Study guide for tides");
    expect(Value.Check(StudyGuideSchema, out)).toBe(true);
    expect(fake.calls.filter((c) => c.path === "/v1/chat/completions")).toHaveLength(2);
  });
});
