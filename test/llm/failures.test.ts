import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { createLlm } from "../../src/llm/create.ts";
import type { Llm } from "../../src/llm/types.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake-ollama.ts";
import { type FakeOpenAi, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { fast, llmConfig } from "./support.ts";

const Schema = Type.Object({ title: Type.String() });

/** A loopback port with nothing listening: connections are refused. */
async function deadUrl(): Promise<string> {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const url = `http://127.0.0.1:${s.port}`;
  await s.stop(true);
  return url;
}

/**
 * Only the timeout tests wait on a short LLM_TIMEOUT_MS: a fake that answers can take longer than
 * 300 ms on a loaded machine, and must not be classified as a timeout for it.
 */
const SHORT_TIMEOUT_MS = 300;
const PATIENT_TIMEOUT_MS = 60_000;

describe("failure classification (Ollama)", () => {
  let fake: FakeOllama;
  let llm: Llm;
  let impatient: Llm;
  beforeAll(async () => {
    fake = startFakeOllama();
    llm = await createLlm(
      llmConfig({ ollamaHost: [fake.url], llmTimeoutMs: PATIENT_TIMEOUT_MS, llmMaxRetries: 2 }),
      fast,
    );
    impatient = await createLlm(
      llmConfig({ ollamaHost: [fake.url], llmTimeoutMs: SHORT_TIMEOUT_MS, llmMaxRetries: 2 }),
      fast,
    );
  });
  beforeEach(() => {
    fake.behave("ok");
    fake.calls.length = 0;
  });
  afterAll(() => fake.close());

  test("a model that does not answer in time is LLM_TIMEOUT (503), not retried", async () => {
    fake.behave("hang");
    const err = await impatient.generateObject(Schema, "x").catch((e) => e);
    // The fake never answers: only the timeout can end the call, and one call was made.
    expect(err).toMatchObject({ code: "LLM_TIMEOUT", status: 503 });
    expect(err.message).toContain("300 ms");
    expect(fake.generations()).toHaveLength(1);
  });

  test("429 is retried; when it persists it is LLM_RATE_LIMIT (503)", async () => {
    fake.behave("rate_limit", 1);
    expect(await llm.generateObject(Schema, "x")).toHaveProperty("title");
    expect(fake.generations()).toHaveLength(2);

    fake.calls.length = 0;
    fake.behave("rate_limit");
    const err = await llm.generateText("x").catch((e) => e);
    expect(err).toMatchObject({ code: "LLM_RATE_LIMIT", status: 503 });
    expect(fake.generations()).toHaveLength(3);
  });

  test("a prose refusal is LLM_REFUSED at once", async () => {
    fake.behave("refuse");
    const err = await llm.generateObject(Schema, "x").catch((e) => e);
    expect(err).toMatchObject({ code: "LLM_REFUSED" });
    expect(err.message).toContain("can't help");
    expect(fake.generations()).toHaveLength(1);
    const textErr = await llm.generateText("x").catch((e) => e);
    expect(textErr.code).toBe("LLM_REFUSED");
  });

  test("a failing server (5xx) is LLM_UNAVAILABLE after retries", async () => {
    fake.behave("down");
    const err = await llm.generateObject(Schema, "x").catch((e) => e);
    expect(err).toMatchObject({ code: "LLM_UNAVAILABLE", status: 503 });
    expect(fake.generations()).toHaveLength(3);
  });

  test("a model the server does not have is MODEL_NOT_FOUND naming the model", async () => {
    const err = await llm.generateText("x", { model: "no-such-model" }).catch((e) => e);
    expect(err.code).toBe("MODEL_NOT_FOUND");
    expect(err.message).toContain("no-such-model");
  });

  test("nothing listening is LLM_UNAVAILABLE naming the host", async () => {
    const url = await deadUrl();
    const down = await createLlm(llmConfig({ ollamaHost: [url], llmMaxRetries: 0 }), fast);
    const err = await down.generateText("x").catch((e) => e);
    expect(err).toMatchObject({ code: "LLM_UNAVAILABLE", status: 503 });
    expect(err.message).toContain(url);
    expect((await down.health()).ok).toBe(false);
  });

  test("a caller's abort stops the call", async () => {
    fake.behave("hang");
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    const err = await llm.generateText("x", { signal: ctl.signal }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
  });
});

describe("failure classification (OpenAI-compatible)", () => {
  let fake: FakeOpenAi;
  let llm: Llm;
  let impatient: Llm;
  beforeAll(async () => {
    fake = startFakeOpenAi();
    const openai = (llmTimeoutMs: number) =>
      createLlm(
        llmConfig({ llmProvider: "openai", openaiBaseUrl: fake.url, llmModel: "qwen2.5-7b-instruct", llmTimeoutMs }),
        fast,
      );
    llm = await openai(PATIENT_TIMEOUT_MS);
    impatient = await openai(SHORT_TIMEOUT_MS);
  });
  beforeEach(() => {
    fake.behave("ok");
    fake.calls.length = 0;
  });
  afterAll(() => fake.close());

  test("timeout, rate limit, unavailable and refusal map to their codes", async () => {
    fake.behave("hang");
    expect((await impatient.generateText("x").catch((e) => e)).code).toBe("LLM_TIMEOUT");
    fake.behave("rate_limit");
    expect((await llm.generateText("x").catch((e) => e)).code).toBe("LLM_RATE_LIMIT");
    fake.behave("down");
    expect((await llm.generateText("x").catch((e) => e)).code).toBe("LLM_UNAVAILABLE");
    fake.behave("ok");
    fake.behave("refusal_field", 1);
    expect((await llm.generateObject(Schema, "x").catch((e) => e)).code).toBe("LLM_REFUSED");
  });

  test("a rejected request (4xx) is MODEL_REQUEST_REJECTED with the status, never INTERNAL", async () => {
    const keyed = startFakeOpenAi({ apiKey: "right" });
    const wrong = await createLlm(
      llmConfig({ llmProvider: "openai", openaiBaseUrl: keyed.url, openaiApiKey: "wrong" }),
      fast,
    );
    const err = await wrong.generateText("x").catch((e) => e);
    expect(err).toMatchObject({ code: "MODEL_REQUEST_REJECTED", status: 502 });
    expect(err.message).toContain("401");
    await keyed.close();
  });
});

describe("host fail-over", () => {
  test("requests spread round-robin over healthy hosts", async () => {
    const a = startFakeOllama();
    const b = startFakeOllama();
    const llm = await createLlm(llmConfig({ ollamaHost: [a.url, b.url] }), fast);
    for (let i = 0; i < 6; i++) await llm.generateText(`q${i}`);
    expect(a.generations()).toHaveLength(3);
    expect(b.generations()).toHaveLength(3);
    await Promise.all([a.close(), b.close()]);
  });

  test("a failing host is skipped and the call lands on the next; the bad host then waits", async () => {
    const bad = startFakeOllama();
    const good = startFakeOllama();
    bad.behave("down");
    const llm = await createLlm(llmConfig({ ollamaHost: [bad.url, good.url], llmMaxRetries: 0 }), fast);
    for (let i = 0; i < 4; i++) expect(await llm.generateText(`q${i}`)).toContain(`q${i}`);
    expect(bad.generations()).toHaveLength(1);
    expect(good.generations()).toHaveLength(4);
    await Promise.all([bad.close(), good.close()]);
  });

  test("a dead host (connection refused) is skipped, streaming included", async () => {
    const good = startFakeOllama();
    const llm = await createLlm(llmConfig({ ollamaHost: [await deadUrl(), good.url], llmMaxRetries: 0 }), fast);
    const pieces: string[] = [];
    for await (const p of llm.streamText("rivers and lakes")) pieces.push(p);
    expect(pieces.join("")).toContain("rivers");
    expect(await llm.generateText("oceans")).toContain("oceans");
    const health = await llm.health();
    expect(health.ok).toBe(true);
    expect(health.endpoints.map((e) => e.ok)).toEqual([false, true]);
    await good.close();
  });

  test("a rate-limited host hands over to the other one", async () => {
    const busy = startFakeOllama();
    const idle = startFakeOllama();
    busy.behave("rate_limit");
    const llm = await createLlm(llmConfig({ ollamaHost: [busy.url, idle.url], llmMaxRetries: 0 }), fast);
    expect(await llm.generateText("hello")).toContain("hello");
    expect(idle.generations()).toHaveLength(1);
    await Promise.all([busy.close(), idle.close()]);
  });
});
