/**
 * Condensed notes go through the grounding check every model path uses (#30): a note saying what
 * the passages it cites do not is re-asked once, then its unsupported sentences are left out, so
 * the chapter is never written from them; a faithful note reaches the chapter's prompt.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeChapter } from "../../src/llm/artefacts.ts";
import { createLlm } from "../../src/llm/create.ts";
import type { Llm } from "../../src/llm/types.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake-ollama.ts";
import { corpusDocs } from "./corpus.ts";
import { fast, llmConfig } from "./support.ts";

// Eight SciFact abstracts: more than a chapter prompt holds at 8192 tokens, so they are condensed.
const docs = corpusDocs.scifact().slice(0, 8);
const passages = docs.map((d) => ({ id: d.id, text: d.text, heading: "Findings", headingPath: ["Findings"] }));
const INVENTED = "The survey teams recorded seventeen separate readings at the northern station in 1887.";

let fake: FakeOllama;
let llm: Llm;
beforeAll(async () => {
  fake = startFakeOllama();
  llm = await createLlm(llmConfig({ ollamaHost: [fake.url], llmNumCtx: 8192 }), fast);
});
afterAll(() => fake.close());

const isCondensing = (body: Record<string, any>) => JSON.stringify(body.format ?? "").includes('"notes"');

test("a condensing note its passages do not support is re-asked once, then left out of the chapter's prompt", async () => {
  const faithful = docs[0]!.text.split(". ").slice(0, 2).join(". ");
  // Every condensing reply: a faithful note on S1 and an invented one on S2.
  fake.respondWith(({ body }) =>
    isCondensing(body)
      ? JSON.stringify({
          notes: [
            { text: `${faithful}.`, sources: ["S1"] },
            { text: INVENTED, sources: ["S2"] },
          ],
        })
      : undefined,
  );
  try {
    const before = fake.generations().length;
    await writeChapter(llm, {
      courseTitle: "Findings",
      chapterTitle: "Findings",
      objectives: ["Explain the findings"],
      passages,
      sectionDepth: 1,
    });
    const calls = fake.generations().slice(before);
    const condensing = calls.filter((c) => isCondensing(c.body!));
    // Each run asked once, then re-asked once naming the invented note, and no more.
    const first = condensing.filter((c) => c.body!.messages.length === 2);
    const reasks = condensing.filter((c) => c.body!.messages.length > 2);
    expect(first.length).toBeGreaterThan(0);
    expect(reasks).toHaveLength(first.length);
    for (const r of reasks)
      expect(r.body!.messages.at(-1).content).toContain("/notes/1: the passages it cites (S2) do not say");
    const chapter = calls.find((c) => JSON.stringify(c.body!.format ?? "").includes("key_concepts"))!;
    const prompt = chapter.body!.messages.map((m: { content: string }) => m.content).join("\n");
    expect(prompt).toContain(faithful.slice(0, 80));
    expect(prompt).not.toContain("seventeen separate readings");
  } finally {
    fake.respondWith(null);
  }
});
