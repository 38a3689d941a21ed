/**
 * Every model prompt fits the context window (#30): with the model simulator and a 6144-token
 * window, each artefact built from long text sends no request whose prompt, by the server's own
 * estimate (promptTokens), and the reply it allows (num_predict) exceed num_ctx: first asks and
 * re-asks alike, the re-ask leaving out as much of the failed reply as it must.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import {
  answerQuestion,
  type ChapterSummary,
  gradeWithModel,
  writeChapter,
  writeExamQuestions,
  writeFlashcards,
  writeNotes,
  writePodcastScript,
  writeStudyGuide,
} from "../../src/llm/artefacts.ts";
import { promptTokens } from "../../src/llm/context-budget.ts";
import { createLlm } from "../../src/llm/create.ts";
import type { Llm } from "../../src/llm/types.ts";
import type { RecordedCall } from "../helpers/fake-ollama.ts";
import { type ModelSimulator, startModelSimulator } from "../helpers/model-simulator.ts";
import { corpusDocs } from "./corpus.ts";
import { fast, llmConfig } from "./support.ts";

// Flashcards fill missing concepts with the extractive engine, in its thread: slow on a loaded machine.
setDefaultTimeout(60_000);

const NUM_CTX = 6144;
// 25 SciFact abstracts: far more text than one prompt holds beside any reply.
const docs = corpusDocs.scifact();
const LONG = docs.map((d) => d.text).join("\n\n");
const chapters: ChapterSummary[] = docs.slice(0, 4).map((d, i) => ({
  title: d.heading!,
  content: docs
    .slice(i * 5)
    .map((x) => x.text)
    .join("\n\n"),
  key_concepts: d.heading!.split(/\s+/).slice(0, 4),
}));

let sim: ModelSimulator;
let llm: Llm;
beforeAll(async () => {
  sim = startModelSimulator();
  llm = await createLlm(llmConfig({ ollamaHost: [sim.url], llmNumCtx: NUM_CTX }), fast);
});
afterAll(() => sim.close());

/** What each generation call since `from` asked, against its window: the server's estimate of its prompt plus its reply. */
function sizes(from: number) {
  return sim
    .generations()
    .slice(from)
    .map((c: RecordedCall) => {
      const chars = (c.body!.messages as { content: string }[]).reduce((n, m) => n + m.content.length, 0);
      return {
        turns: c.body!.messages.length as number,
        used: promptTokens(chars) + (c.body!.options.num_predict as number),
        numCtx: c.body!.options.num_ctx as number,
      };
    });
}

/** Runs `build` with the first call answered by JSON of the wrong shape (so it is re-asked), and checks every call fits. */
async function fitsWithReask(build: () => Promise<unknown>) {
  const from = sim.generations().length;
  sim.behave("malformed", { when: () => true, times: 1 });
  await build();
  sim.behave("faithful");
  const calls = sizes(from);
  // The re-ask happened, so the test covers it.
  expect(calls.some((c) => c.turns > 2)).toBe(true);
  for (const c of calls) {
    expect(c.numCtx).toBe(NUM_CTX);
    expect(c.used).toBeLessThanOrEqual(NUM_CTX);
  }
}

describe("prompts sized to LLM_NUM_CTX, re-asks included", () => {
  test("notes", () =>
    fitsWithReask(() =>
      writeNotes(llm, {
        courseTitle: "Findings",
        chapters,
        learningGoal: "exams",
        learningStyle: "concise",
        tutorTone: "mentor",
      }),
    ));

  test("exam questions", () =>
    fitsWithReask(() =>
      writeExamQuestions(llm, { courseTitle: "Findings", chapter: chapters[0]!, count: 5, types: ["mcq"] }),
    ));

  test("podcast script", () =>
    fitsWithReask(() =>
      writePodcastScript(llm, {
        courseTitle: "Findings",
        chapterTitle: chapters[0]!.title,
        content: LONG,
        key_concepts: chapters[0]!.key_concepts,
      }),
    ));

  test("study guide and flashcards", async () => {
    await fitsWithReask(() => writeStudyGuide(llm, { courseTitle: "Findings", chapters }));
    await fitsWithReask(() => writeFlashcards(llm, { courseTitle: "Findings", chapters }));
  });

  test("answer and rubric grading", async () => {
    const passages = docs.slice(0, 12).map((d) => ({ id: d.id, text: d.text.repeat(2) }));
    await fitsWithReask(() => answerQuestion(llm, { question: `What did ${docs[0]!.heading} find?`, passages }));
    await fitsWithReask(() =>
      gradeWithModel(llm, { question: "What was found?", reference: docs[0]!.text, rubric: ["a", "b"], answer: LONG }),
    );
  });

  test("a chapter written from long own sections: the condensing calls and the chapter", () =>
    fitsWithReask(() =>
      writeChapter(llm, {
        courseTitle: "Findings",
        chapterTitle: chapters[0]!.title,
        objectives: ["Explain the findings"],
        passages: docs.map((d) => ({ id: d.id, text: d.text, heading: d.heading, headingPath: [d.heading!] })),
        sectionDepth: 1,
      }),
    ));
});
