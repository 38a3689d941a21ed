/**
 * A reasoning model's thinking aloud never reaches what the server keeps or shows (#30): not in a
 * structured reply, not in streamed text, through Ollama's API or the OpenAI-compatible one.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLlm } from "../../src/llm/create.ts";
import { ReasoningFilter } from "../../src/llm/repair.ts";
import { StudyGuideSchema } from "../../src/llm/schemas.ts";
import { type ModelSimulator, REASONING_MARK, startModelSimulator } from "../helpers/model-simulator.ts";
import { fast, llmConfig } from "./support.ts";

let sim: ModelSimulator;
beforeAll(() => {
  sim = startModelSimulator();
  sim.behave("think", { when: () => true });
});
afterAll(() => sim.close());

const apis = {
  ollama: () => llmConfig({ llmProvider: "ollama", ollamaHost: [sim.url] }),
  openai: () => llmConfig({ llmProvider: "openai", openaiBaseUrl: sim.openaiUrl, openaiApiKey: "sim" }),
};

describe.each(Object.keys(apis) as (keyof typeof apis)[])("through the %s API", (api) => {
  test("streamed text leaves the <think> block out, however the pieces fall", async () => {
    const llm = await createLlm(apis[api](), fast);
    let text = "";
    for await (const piece of llm.streamText("Explain why tides rise and fall twice a day")) text += piece;
    expect(text).not.toContain(REASONING_MARK);
    expect(text).not.toContain("think>");
    expect(text).toBe("Explain why tides rise and fall twice a day");
  });

  test("a structured reply after a <think> block is parsed without it", async () => {
    const llm = await createLlm(apis[api](), fast);
    const guide = await llm.generateObject(StudyGuideSchema, "Study guide for tides", { task: "study_guide" });
    expect(JSON.stringify(guide)).not.toContain(REASONING_MARK);
  });
});

test("text that only looks like a tag at first is passed on whole", () => {
  const filter = new ReasoningFilter();
  expect(["<", "b>bold</b> and ", "more"].map((p) => filter.push(p)).join("")).toBe("<b>bold</b> and more");
});
