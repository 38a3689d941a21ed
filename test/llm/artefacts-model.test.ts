import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import {
  answerQuestion,
  type ChapterSummary,
  type Passage,
  UsageMeter,
  writeChapter,
  writeExamQuestions,
  writeFlashcards,
  writeNotes,
  writeOutline,
  writePodcastScript,
  writeStudyGuide,
} from "../../src/llm/artefacts.ts";
import { createLlm } from "../../src/llm/create.ts";
import {
  ChapterSchema,
  ExamQuestion,
  outlineSchema,
  PodcastScriptSchema,
  StudyGuideSchema,
} from "../../src/llm/schemas.ts";
import type { Llm } from "../../src/llm/types.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake-ollama.ts";
import { fast, llmConfig } from "./support.ts";

let fake: FakeOllama;
let llm: Llm;
beforeAll(async () => {
  fake = startFakeOllama();
  llm = await createLlm(llmConfig({ ollamaHost: [fake.url] }), fast);
});
beforeEach(() => {
  fake.behave("ok");
  fake.respondWith(null);
  fake.calls.length = 0;
});
afterAll(() => fake.close());

const passages: Passage[] = [
  {
    id: "p-moon",
    text: "Tides are caused mainly by the gravitational pull of the Moon on the oceans.",
    filename: "tides.pdf",
    page: 3,
  },
  {
    id: "p-sun",
    text: "The Sun also raises tides; when Sun and Moon align, spring tides occur.",
    filename: "tides.pdf",
    page: 4,
  },
];
const chapters: ChapterSummary[] = [
  {
    title: "What causes tides",
    content: "Tides are caused by the Moon's gravity. The Sun contributes as well.",
    key_concepts: ["gravity", "Moon"],
  },
  {
    title: "Spring and neap tides",
    content:
      "A spring tide is a tide of unusually large range that happens when the Sun and the Moon align. A neap tide is a tide of small range that happens when they stand at right angles. Spring tides and neap tides each come twice a month.",
    key_concepts: ["spring tide", "neap tide"],
  },
];
const lastPrompt = () =>
  fake
    .generations()
    .at(-1)!
    .body!.messages.map((m: { content: string }) => m.content)
    .join("\n");

describe("artefacts from a model (fake Ollama)", () => {
  test("outline: exactly numChapters chapters, a slug, and a prompt carrying passages and goal", async () => {
    const meter = new UsageMeter();
    const o = await writeOutline(llm, { topic: "Ocean tides", learningGoal: "exams", numChapters: 5, passages, meter });
    expect(Value.Check(outlineSchema(5), { title: o.title, description: o.description, chapters: o.chapters })).toBe(
      true,
    );
    expect(o.chapters).toHaveLength(5);
    expect(o.slug).toMatch(/^[a-z0-9-]+$/);
    const prompt = lastPrompt();
    expect(prompt).toContain("id=p-moon (tides.pdf, p. 3)");
    expect(prompt).toContain("pass an exam");
    expect(prompt).toContain("exactly 5 chapters");
    expect(meter.calls).toBe(1);
  });

  test("outline without a topic asks for the dominant theme", async () => {
    await writeOutline(llm, { numChapters: 2, passages });
    expect(lastPrompt()).toContain("dominant theme");
  });

  const LONG =
    "Tides are caused mainly by the gravitational pull of the Moon on the oceans. The pull of the Moon on the oceans is what raises the tides, and the oceans are pulled most where they face the Moon.";
  test("chapter: passages cited by short handles; a handle not given and an out-of-range answer are re-asked; handles resolve to passage ids", async () => {
    const reply = (handle: string, answer: number) =>
      JSON.stringify({
        sections: [{ heading: "Tides", paragraphs: [{ text: LONG, sources: [handle] }] }],
        key_concepts: ["tide", "gravity", "Moon"],
        quiz: {
          questions: ["What causes tides?", "What are spring tides?", "When do neap tides happen?"].map((prompt) => ({
            type: "mcq",
            prompt,
            choices: ["Moon", "Wind", "Fish"],
            answer,
            explanation: "Gravity of the Moon.",
          })),
        },
      });
    // First a handle that was never given, then an answer out of range, then a valid chapter.
    let asked = 0;
    fake.respondWith(() => {
      asked += 1;
      return asked === 1 ? reply("S9", 0) : asked === 2 ? reply("S1", 4) : reply("S1", 0);
    });
    const c = await writeChapter(llm, {
      courseTitle: "Tides",
      chapterTitle: "Causes",
      objectives: ["Explain tides"],
      learningGoal: "career",
      passages,
    });
    const { grounding: _grounding, ...stored } = c;
    expect(Value.Check(ChapterSchema, stored)).toBe(true);
    expect(c.content).toBe(`## Tides\n\n${LONG}`);
    expect(c.citations).toEqual(["p-moon"]);
    expect(c.grounding).toEqual({ "p-moon": [1] });
    expect(fake.generations()).toHaveLength(3);
    expect(fake.generations()[1]!.body!.messages.at(-1).content).toContain("/sections/0/paragraphs/0/sources");
    expect(fake.generations()[2]!.body!.messages.at(-1).content).toContain("is not an index into its 3 choices");
    // The JSON schema itself allows only the handles given.
    expect(JSON.stringify(fake.generations()[0]!.body!.format)).toContain('"const":"S2"');
    // The model sees S1, S2… and never the 36-character ids it would have to copy.
    expect(lastPrompt()).toContain("[S1]");
    expect(lastPrompt()).not.toContain("p-moon");
    expect(lastPrompt()).toContain("use this at work");
  });

  test("chapter: a paragraph its cited passage does not support is re-asked once, then dropped", async () => {
    const off = "Volcanic eruptions in Iceland release sulphur dioxide into the upper atmosphere every winter season.";
    const reply = JSON.stringify({
      sections: [
        {
          heading: "Tides",
          paragraphs: [
            { text: "The Moon pulls the oceans, raising tides on the side nearest the Moon.", sources: ["S1"] },
            { text: off, sources: ["S1"] },
          ],
        },
      ],
      key_concepts: ["tide", "gravity", "Moon"],
      quiz: {
        questions: ["What causes tides?", "What are spring tides?", "When do neap tides happen?"].map((prompt) => ({
          type: "mcq",
          prompt,
          choices: ["Moon", "Wind", "Fish"],
          answer: 0,
          explanation: "Gravity.",
        })),
      },
    });
    fake.respondWith(() => reply);
    const c = await writeChapter(llm, {
      courseTitle: "Tides",
      chapterTitle: "Causes",
      objectives: ["Explain tides"],
      passages,
    });
    expect(fake.generations()).toHaveLength(2);
    expect(fake.generations()[1]!.body!.messages.at(-1).content).toContain(
      `/sections/0/paragraphs/1: the passages it cites (S1) do not say ${JSON.stringify(off)}`,
    );
    expect(c.content).not.toContain("Volcanic");
    expect(c.content).toContain("The Moon pulls the oceans");
  });

  test("study guide", async () => {
    const g = await writeStudyGuide(llm, { courseTitle: "Tides", chapters });
    expect(Value.Check(StudyGuideSchema, g)).toBe(true);
    expect(lastPrompt()).toContain("Spring and neap tides");
  });

  test("notes: introduction, one section per chapter in order, conclusion; tone and style shape the prompt", async () => {
    const notes = await writeNotes(llm, {
      courseTitle: "Tides",
      chapters,
      learningGoal: "interviews",
      learningStyle: "concise",
      tutorTone: "peer",
    });
    const headings = notes.split("\n").filter((l) => l.startsWith("## "));
    expect(headings).toEqual([
      "## Introduction",
      "## Chapter 1: What causes tides",
      "## Chapter 2: Spring and neap tides",
      "## Conclusion",
    ]);
    const system = fake.generations().at(-1)!.body!.messages[0].content;
    expect(system).toContain("fellow student");
    expect(lastPrompt()).toContain("job interviews");
    expect(lastPrompt()).toContain("concise");
    await writeNotes(llm, {
      courseTitle: "Tides",
      chapters,
      learningGoal: "exams",
      learningStyle: "narrative",
      tutorTone: "professor",
    });
    expect(fake.generations().at(-1)!.body!.messages[0].content).toContain("university professor");
  });

  test("flashcards cover every key concept, with unique fronts and a matching total", async () => {
    const deck = await writeFlashcards(llm, { courseTitle: "Tides", chapters });
    const fronts = deck.cards.map((c) => c.front.toLowerCase());
    expect(new Set(fronts).size).toBe(fronts.length);
    expect(deck.total).toBe(deck.cards.length);
    const all = deck.cards.map((c) => `${c.front} ${c.back}`.toLowerCase()).join("\n");
    for (const k of chapters.flatMap((c) => c.key_concepts)) expect(all).toContain(k.toLowerCase());
  });

  test("exam questions: exactly count, of the requested types, avoiding listed prompts", async () => {
    const qs = await writeExamQuestions(llm, {
      courseTitle: "Tides",
      chapter: chapters[0]!,
      count: 6,
      types: ["mcq", "short_answer", "worked_problem"],
      avoidPrompts: ["What is a tide?"],
    });
    expect(qs).toHaveLength(6);
    for (const q of qs) expect(Value.Check(ExamQuestion, q)).toBe(true);
    expect(new Set(qs.map((q) => q.type))).toEqual(new Set(["mcq", "short_answer", "worked_problem"]));
    expect(lastPrompt()).toContain("- What is a tide?");
  });

  test("answer: [n] markers become passage ids, markers past the passages are dropped", async () => {
    fake.respondWith(() => JSON.stringify({ answered: true, answer: "The Moon's gravity [1]. Also the Sun [2][7]." }));
    const a = await answerQuestion(llm, { question: "What causes tides?", passages });
    expect(a).toEqual({
      answer: "The Moon's gravity [1]. Also the Sun [2].",
      citations: ["p-moon", "p-sun"],
      answered: true,
    });
  });

  test("answer: unanswerable questions say so and cite nothing", async () => {
    fake.respondWith(() => JSON.stringify({ answered: false, answer: "The sources do not cover the stock market." }));
    const a = await answerQuestion(llm, { question: "How did the stock market do?", passages });
    expect(a).toEqual({ answer: "The sources do not cover the stock market.", citations: [], answered: false });
  });

  test("podcast: alternating host/guest turns, long enough to speak for minutes", async () => {
    const s = await writePodcastScript(llm, {
      courseTitle: "Tides",
      chapterTitle: "Causes",
      content: chapters[0]!.content,
      key_concepts: ["gravity", "Moon"],
    });
    expect(Value.Check(PodcastScriptSchema, s)).toBe(true);
    s.turns.forEach((t, i) => {
      i > 0 && expect(t.speaker).not.toBe(s.turns[i - 1]!.speaker);
    });
    const words = s.turns.reduce((n, t) => n + t.text.split(/\s+/).length, 0);
    expect(words).toBeGreaterThanOrEqual(400);
  });

  test('model "extractive" builds without calling the model and is labelled extractive', async () => {
    const meter = new UsageMeter();
    const deck = await writeFlashcards(llm, { courseTitle: "Tides", chapters, model: "extractive", meter });
    expect(deck.total).toBeGreaterThan(0);
    expect(fake.generations()).toHaveLength(0);
    expect(meter).toMatchObject({ calls: 1, engine: "extractive", model: "extractive", promptTokens: 0 });
  });

  test("a model failure inside an artefact surfaces as the classified AppError", async () => {
    fake.behave("refuse");
    const err = await writeStudyGuide(llm, { courseTitle: "Tides", chapters }).catch((e) => e);
    expect(err.code).toBe("LLM_REFUSED");
  });
});
