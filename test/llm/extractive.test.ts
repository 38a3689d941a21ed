import { beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { plainText } from "../../src/llm/extractive/text.ts";
import {
  answerQuestion,
  UsageMeter,
  writeChapter,
  writeExamQuestions,
  writeFlashcards,
  writeNotes,
  writeOutline,
  writePodcastScript,
  writeStudyGuide,
  type ChapterSummary,
  type Passage,
} from "../../src/llm/artefacts.ts";
import { createLlm } from "../../src/llm/create.ts";
import { BLANK } from "../../src/llm/extractive/cloze.ts";
import { ChapterSchema, ExamQuestion, outlineSchema, PodcastScriptSchema, StudyGuideSchema, type McqQuestion } from "../../src/llm/schemas.ts";
import type { Llm } from "../../src/llm/types.ts";
import { corpusDocs } from "./corpus.ts";
import { llmConfig } from "./support.ts";

let llm: Llm;
beforeAll(async () => {
  llm = await createLlm(llmConfig({ llmProvider: "extractive" }));
});

/** A cloze question is sound when its answer fills the blank to give back the quoted source sentence. */
function expectSoundCloze(q: McqQuestion) {
  expect(q.answer).toBeGreaterThanOrEqual(0);
  expect(q.answer).toBeLessThan(q.choices.length);
  expect(new Set(q.choices).size).toBe(q.choices.length);
  const source = /The source says: "([\s\S]*)"$/.exec(q.explanation)?.[1];
  expect(source).toBeDefined();
  const answer = q.choices[q.answer]!;
  expect(source!).toContain(answer);
  expect(q.prompt.replace("Fill in the blank: ", "").replace(BLANK, answer)).toBe(source!);
}

const docs: [string, () => Passage[]][] = [
  ["Wikipedia article (HTML)", corpusDocs.wikipedia],
  ["IBM Redpaper (PDF ground truth markdown)", corpusDocs.redbook],
  ["V8 blog post (HTML)", corpusDocs.v8blog],
  ["SciFact abstracts", corpusDocs.scifact],
];

describe.each(docs)("extractive engine on %s", (_name, load) => {
  let passages: Passage[];
  let summaries: ChapterSummary[];
  let outlineTitle: string;

  beforeAll(async () => {
    passages = load();
    const outline = await writeOutline(llm, { numChapters: 3, passages });
    outlineTitle = outline.title;
    summaries = [];
    for (const [i, c] of outline.chapters.entries()) {
      const slice = passages.slice(Math.floor((i * passages.length) / 3), Math.floor(((i + 1) * passages.length) / 3));
      const ch = await writeChapter(llm, { courseTitle: outline.title, chapterTitle: c.title, objectives: c.objectives, passages: slice });
      summaries.push({ title: c.title, content: ch.content, key_concepts: ch.key_concepts });
    }
  });

  test("outline: valid, exactly the chapters asked for, titled after the sources", async () => {
    const meter = new UsageMeter();
    const o = await writeOutline(llm, { numChapters: 4, passages, meter });
    expect(Value.Check(outlineSchema(4), { title: o.title, description: o.description, chapters: o.chapters })).toBe(true);
    expect(new Set(o.chapters.map((c) => c.title.toLowerCase())).size).toBe(4);
    expect(o.slug).toMatch(/^[a-z0-9-]+$/);
    expect(meter).toMatchObject({ calls: 1, engine: "extractive", model: "extractive", promptTokens: 0, completionTokens: 0 });
    // Deterministic: the same sources give the same outline.
    expect(await writeOutline(llm, { numChapters: 4, passages })).toEqual(o);
  });

  test("chapter: valid, content drawn from the passages, sound cloze quiz, citations among the given ids", async () => {
    const slice = passages.slice(0, 10);
    const ch = await writeChapter(llm, { courseTitle: outlineTitle, chapterTitle: summaries[0]!.title, objectives: ["Explain the main ideas"], passages: slice });
    expect(Value.Check(ChapterSchema, ch)).toBe(true);
    expect(ch.quiz.questions.length).toBeGreaterThanOrEqual(3);
    for (const q of ch.quiz.questions) expectSoundCloze(q);
    expect(ch.citations.length).toBeGreaterThan(0);
    for (const id of ch.citations) expect(slice.map((p) => p.id)).toContain(id);
    const firstSentence = /## Overview\n\n([^.!?]+)/.exec(ch.content)![1]!;
    expect(slice.some((p) => p.text.replace(/\s+/g, " ").includes(firstSentence.replace(/\s+/g, " ").trim()))).toBe(true);
  });

  test("study guide: valid with key terms, one section per chapter and a summary", async () => {
    const g = await writeStudyGuide(llm, { courseTitle: outlineTitle, chapters: summaries });
    expect(Value.Check(StudyGuideSchema, g)).toBe(true);
    const terms = g.sections.find((s) => "items" in s);
    expect(terms && "items" in terms && terms.items.length).toBeGreaterThan(0);
    for (const c of summaries) expect(g.sections.some((s) => s.heading.endsWith(c.title))).toBe(true);
  });

  test("flashcards: every key concept covered, no duplicate fronts, total matches", async () => {
    const deck = await writeFlashcards(llm, { courseTitle: outlineTitle, chapters: summaries });
    expect(deck.total).toBe(deck.cards.length);
    const fronts = deck.cards.map((c) => c.front.toLowerCase());
    expect(new Set(fronts).size).toBe(fronts.length);
    for (const k of summaries.flatMap((c) => c.key_concepts)) {
      expect(deck.cards.some((c) => c.front.toLowerCase().includes(k.toLowerCase()))).toBe(true);
    }
    for (const c of deck.cards) expect(c.back.length).toBeGreaterThan(0);
  });

  test("exam: the count asked for, valid questions of the asked types, sound clozes, no repeats", async () => {
    const chapter = summaries[0]!;
    const qs = await writeExamQuestions(llm, { courseTitle: outlineTitle, chapter, count: 6, types: ["mcq", "short_answer", "worked_problem"] });
    expect(qs).toHaveLength(6);
    for (const q of qs) {
      expect(Value.Check(ExamQuestion, q)).toBe(true);
      if (q.type === "mcq") expectSoundCloze(q);
    }
    expect(new Set(qs.map((q) => q.type))).toEqual(new Set(["mcq", "short_answer", "worked_problem"]));
    const again = await writeExamQuestions(llm, { courseTitle: outlineTitle, chapter, count: 3, types: ["mcq"], avoidPrompts: qs.map((q) => q.prompt) });
    for (const q of again) expect(qs.map((x) => x.prompt)).not.toContain(q.prompt);
  });

  test("notes: introduction, a section per chapter, conclusion", async () => {
    const notes = await writeNotes(llm, { courseTitle: outlineTitle, chapters: summaries, learningGoal: "exams", learningStyle: "clear_structured", tutorTone: "mentor" });
    const headings = notes.split("\n").filter((l) => l.startsWith("## "));
    expect(headings).toEqual(["## Introduction", ...summaries.map((c, i) => `## Chapter ${i + 1}: ${c.title}`), "## Conclusion"]);
    expect(notes).toContain("You're about to work through");
  });

  test("podcast: valid, alternating, 450-1200 words, teaching the key concepts", async () => {
    const c = summaries[0]!;
    const s = await writePodcastScript(llm, { courseTitle: outlineTitle, chapterTitle: c.title, content: c.content, key_concepts: c.key_concepts });
    expect(Value.Check(PodcastScriptSchema, s)).toBe(true);
    expect(s.turns[0]!.speaker).toBe("host");
    s.turns.forEach((t, i) => i > 0 && expect(t.speaker).not.toBe(s.turns[i - 1]!.speaker));
    const words = s.turns.reduce((n, t) => n + t.text.split(/\s+/).length, 0);
    expect(words).toBeGreaterThanOrEqual(300);
    expect(words).toBeLessThanOrEqual(1300);
    const script = s.turns.map((t) => t.text).join(" ");
    expect(c.key_concepts.filter((k) => script.includes(k)).length).toBeGreaterThanOrEqual(Math.min(3, c.key_concepts.length));
  });
});

describe("extractive answers", () => {
  const passages = corpusDocs.wikipedia().slice(0, 10);

  test("an answerable question is answered from the passages with [n] citations", async () => {
    const a = await answerQuestion(llm, { question: "What is Firefox?", passages });
    expect(a.answered).toBe(true);
    expect(a.answer).toContain("Firefox");
    const numbers = [...a.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(numbers.length).toBeGreaterThan(0);
    for (const n of numbers) expect(a.citations).toContain(passages[n - 1]!.id);
  });

  test("a question the passages do not cover is not answered", async () => {
    const a = await answerQuestion(llm, { question: "What is the boiling point of liquid nitrogen?", passages });
    expect(a).toEqual({ answer: "The provided sources do not answer this question.", citations: [], answered: false });
  });
});

describe("extractive engine without sources", () => {
  test("a topic-only outline fails with a message on how to configure a model", async () => {
    const err = await writeOutline(llm, { topic: "Quantum computing", numChapters: 3, passages: [] }).catch((e) => e);
    expect(err).toMatchObject({ code: "LLM_UNAVAILABLE", status: 503 });
    expect(err.message).toContain("OLLAMA_HOST");
  });

  test("a transcript without punctuation-rich prose still yields a course", async () => {
    const passages = corpusDocs.captions();
    const o = await writeOutline(llm, { numChapters: 2, passages });
    expect(o.chapters).toHaveLength(2);
    const ch = await writeChapter(llm, { courseTitle: o.title, chapterTitle: o.chapters[0]!.title, objectives: o.chapters[0]!.objectives, passages });
    expect(ch.content.length).toBeGreaterThanOrEqual(200);
    for (const q of ch.quiz.questions) expectSoundCloze(q);
  });
});

test("plain text keeps operators and identifiers: emphasis is removed only at token boundaries", () => {
  expect(plainText("In R, A %*% B is the matrix product; x %*% y too.")).toBe("In R, A %*% B is the matrix product; x %*% y too.");
  expect(plainText("snake_case_name and a*b*c stay; *this* and __that__ lose their marks.")).toBe("snake_case_name and a*b*c stay; this and that lose their marks.");
});
