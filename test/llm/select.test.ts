import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLlm } from "../../src/llm/create.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake-ollama.ts";
import { type FakeOpenAi, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { fast, llmConfig } from "./support.ts";

let ollama: FakeOllama;
let openai: FakeOpenAi;
let dead: string;

beforeAll(async () => {
  ollama = startFakeOllama();
  openai = startFakeOpenAi();
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  dead = `http://127.0.0.1:${s.port}`;
  await s.stop(true);
});
afterAll(() => Promise.all([ollama.close(), openai.close()]));

describe("LLM_PROVIDER=auto", () => {
  test("picks Ollama when any host answers /api/version", async () => {
    const llm = await createLlm(
      llmConfig({ llmProvider: "auto", ollamaHost: [dead, ollama.url], openaiBaseUrl: openai.url }),
      fast,
    );
    expect(llm.describe()).toMatchObject({ engine: "ollama", model: "llama3.2", endpoints: [dead, ollama.url] });
    expect(llm.describe().reason).toContain(ollama.url);
  });

  test("falls back to the OpenAI-compatible server when no Ollama answers", async () => {
    const llm = await createLlm(
      llmConfig({ llmProvider: "auto", ollamaHost: [dead], openaiBaseUrl: openai.url }),
      fast,
    );
    expect(llm.describe()).toMatchObject({ engine: "openai", endpoints: [openai.url] });
    expect(llm.describe().reason).toContain("no Ollama");
  });

  test("falls back to extractive when neither is there, and says why", async () => {
    const llm = await createLlm(llmConfig({ llmProvider: "auto", ollamaHost: [dead] }), fast);
    expect(llm.describe()).toEqual({
      engine: "extractive",
      model: "extractive",
      reason: "auto: no Ollama reachable and OPENAI_BASE_URL not set",
      endpoints: [],
    });
    const err = await llm.generateText("x").catch((e) => e);
    expect(err.code).toBe("LLM_UNAVAILABLE");
    expect(err.message).toContain("OLLAMA_HOST");
  });

  test("a hanging Ollama does not hold start-up beyond the probe timeout", async () => {
    // Ending before the host would answer shows the probe's timeout ended it, however loaded the machine.
    const latencyMs = 30_000;
    const slow = startFakeOllama({ latencyMs });
    const started = Date.now();
    const llm = await createLlm(llmConfig({ llmProvider: "auto", ollamaHost: [slow.url] }), {
      ...fast,
      probeTimeoutMs: 200,
    });
    expect(llm.engine).toBe("extractive");
    expect(Date.now() - started).toBeLessThan(latencyMs);
    await slow.close();
  });
});

describe("explicit providers", () => {
  test("ollama is used as configured even when down (calls then fail as unavailable)", async () => {
    const llm = await createLlm(llmConfig({ llmProvider: "ollama", ollamaHost: [dead] }), fast);
    expect(llm.engine).toBe("ollama");
    expect(llm.describe().reason).toBe("configured");
  });
  test("openai needs OPENAI_BASE_URL", async () => {
    expect(createLlm(llmConfig({ llmProvider: "openai" }), fast)).rejects.toThrow("OPENAI_BASE_URL");
  });
  test("extractive", async () => {
    const llm = await createLlm(llmConfig({ llmProvider: "extractive" }), fast);
    expect(llm.describe()).toMatchObject({ engine: "extractive", model: "extractive" });
    expect((await llm.health()).ok).toBe(true);
  });
});
