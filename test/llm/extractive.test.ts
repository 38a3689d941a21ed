import { beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { answerLeaks } from "../../src/llm/artefacts/checks.ts";
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
import { BLANK } from "../../src/llm/extractive/questions.ts";
import { procedures } from "../../src/llm/extractive/steps.ts";
import { plainText, pointsElsewhere } from "../../src/llm/extractive/text.ts";
import {
  ChapterSchema,
  ExamQuestion,
  type McqQuestion,
  outlineSchema,
  StudyGuideSchema,
} from "../../src/llm/schemas.ts";
import type { Llm } from "../../src/llm/types.ts";
import { engineThread } from "../helpers/engine-thread.ts";
import { corpusDocs } from "./corpus.ts";
import { llmConfig } from "./support.ts";

let llm: Llm;
beforeAll(async () => {
  llm = await createLlm(llmConfig({ llmProvider: "extractive" }), { builds: engineThread });
});

const flat = (s: string) => plainText(s).replace(/\s+/g, " ");

/**
 * A multiple-choice question is sound when exactly one distinct choice is marked, its prompt does
 * not give that choice away, its explanation quotes a sentence of the passages and says where it is,
 * and a blank filled with the answer gives back that sentence.
 */
function expectSoundMcq(q: McqQuestion, passages: Passage[]) {
  expect(q.answer).toBeGreaterThanOrEqual(0);
  expect(q.answer).toBeLessThan(q.choices.length);
  expect(new Set(q.choices).size).toBe(q.choices.length);
  const answer = q.choices[q.answer]!;
  expect(answerLeaks(q.prompt, answer)).toBe(false);
  const [, source, where] = /^The source says: “([\s\S]*?)” \((.+)\)$/.exec(q.explanation) ?? [];
  expect(source).toBeDefined();
  expect(where!.length).toBeGreaterThan(0);
  expect(passages.some((p) => flat(p.text).includes(source!))).toBe(true);
  if (q.prompt.includes(BLANK))
    expect(q.prompt.replace("Complete the statement: ", "").replace(BLANK, answer)).toBe(source!);
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
      const ch = await writeChapter(llm, {
        courseTitle: outline.title,
        chapterTitle: c.title,
        objectives: c.objectives,
        passages: slice,
      });
      summaries.push({ title: c.title, content: ch.content, key_concepts: ch.key_concepts });
    }
  });

  test("outline: valid, exactly the chapters asked for, titled after the sources", async () => {
    const meter = new UsageMeter();
    const o = await writeOutline(llm, { numChapters: 4, passages, meter });
    expect(Value.Check(outlineSchema(4), { title: o.title, description: o.description, chapters: o.chapters })).toBe(
      true,
    );
    expect(new Set(o.chapters.map((c) => c.title.toLowerCase())).size).toBe(4);
    expect(o.slug).toMatch(/^[a-z0-9-]+$/);
    expect(meter).toMatchObject({
      calls: 1,
      engine: "extractive",
      model: "extractive",
      promptTokens: 0,
      completionTokens: 0,
    });
    // Deterministic: the same sources give the same outline.
    expect(await writeOutline(llm, { numChapters: 4, passages })).toEqual(o);
  });

  test("chapter: valid, content drawn from the passages, sound cloze quiz, citations among the given ids", async () => {
    const slice = passages.slice(0, 10);
    const ch = await writeChapter(llm, {
      courseTitle: outlineTitle,
      chapterTitle: summaries[0]!.title,
      objectives: ["Explain the main ideas"],
      passages: slice,
    });
    expect(Value.Check(ChapterSchema, ch)).toBe(true);
    expect(ch.quiz.questions.length).toBeGreaterThanOrEqual(3);
    for (const q of ch.quiz.questions) expectSoundMcq(q, slice);
    expect(ch.citations.length).toBeGreaterThan(0);
    for (const id of ch.citations) expect(slice.map((p) => p.id)).toContain(id);
    const firstSentence = /## Overview\n\n([^.!?]+)/.exec(ch.content)![1]!;
    expect(slice.some((p) => p.text.replace(/\s+/g, " ").includes(firstSentence.replace(/\s+/g, " ").trim()))).toBe(
      true,
    );
  });

  test("study guide: valid, key terms only with a definition that names them, one section per chapter and a summary", async () => {
    const g = await writeStudyGuide(llm, { courseTitle: outlineTitle, chapters: summaries });
    expect(Value.Check(StudyGuideSchema, g)).toBe(true);
    const terms = g.sections.find((s) => "items" in s);
    for (const t of terms && "items" in terms ? terms.items : []) {
      expect(
        t.definition.toLowerCase().includes(t.term.toLowerCase()) || /^[A-Z][\w-]*( [A-Z][\w-]*)+$/.test(t.definition),
      ).toBe(true);
    }
    for (const c of summaries) expect(g.sections.some((s) => s.heading.endsWith(c.title))).toBe(true);
  });

  test("flashcards: a term or a question on the front, its definition or answer from the chapters on the back, no shared backs", async () => {
    const deck = await writeFlashcards(llm, { courseTitle: outlineTitle, chapters: summaries });
    expect(deck.total).toBe(deck.cards.length);
    const fronts = deck.cards.map((c) => c.front.toLowerCase());
    expect(new Set(fronts).size).toBe(fronts.length);
    expect(new Set(deck.cards.map((c) => c.back.toLowerCase())).size).toBe(deck.cards.length);
    const text = flat(summaries.map((c) => c.content).join(" "));
    for (const c of deck.cards) {
      if (c.front.endsWith("?")) continue;
      expect(c.back.toLowerCase()).toContain(c.front.toLowerCase());
      expect(text).toContain(c.back);
    }
  });

  test("exam: valid questions of the asked types, sound multiple choice, rubrics of 2-4 points, no repeats", async () => {
    const chapter = summaries[0]!;
    const qs = await writeExamQuestions(llm, {
      courseTitle: outlineTitle,
      chapter,
      count: 6,
      types: ["mcq", "short_answer", "worked_problem"],
    });
    expect(qs.length).toBeGreaterThanOrEqual(2);
    for (const q of qs) {
      expect(Value.Check(ExamQuestion, q)).toBe(true);
      if (q.type === "mcq") expectSoundMcq(q, passages);
      if (q.type === "short_answer") expect(q.rubric.length).toBeGreaterThanOrEqual(2);
      if (q.type === "short_answer") expect(q.rubric.length).toBeLessThanOrEqual(4);
    }
    // A worked problem only where the chapter lists a procedure step by step (#29).
    const listsSteps = procedures(chapter.content).length > 0;
    expect(qs.some((q) => q.type === "mcq")).toBe(true);
    expect(qs.some((q) => q.type === "worked_problem")).toBe(listsSteps);
    const again = await writeExamQuestions(llm, {
      courseTitle: outlineTitle,
      chapter,
      count: 3,
      types: ["mcq"],
      avoidPrompts: qs.map((q) => q.prompt),
    });
    for (const q of again) expect(qs.map((x) => x.prompt)).not.toContain(q.prompt);
  });

  test("notes: introduction, a section per chapter, conclusion", async () => {
    const notes = await writeNotes(llm, {
      courseTitle: outlineTitle,
      chapters: summaries,
      learningGoal: "exams",
      learningStyle: "clear_structured",
      tutorTone: "mentor",
    });
    const headings = notes.split("\n").filter((l) => l.startsWith("## "));
    expect(headings).toEqual([
      "## Introduction",
      ...summaries.map((c, i) => `## Chapter ${i + 1}: ${c.title}`),
      "## Conclusion",
    ]);
    expect(notes).toContain("You're about to work through");
  });

  test("podcast: a conversation opened by the host, alternating, on the chapter's key concepts, with no line pointing elsewhere", async () => {
    const c = summaries[0]!;
    const s = await writePodcastScript(llm, {
      courseTitle: outlineTitle,
      chapterTitle: c.title,
      content: c.content,
      key_concepts: c.key_concepts,
    });
    // Thin chapters make short episodes: the script never repeats a sentence to reach a length.
    expect(s.turns.length).toBeGreaterThanOrEqual(6);
    expect(s.turns[0]!.speaker).toBe("host");
    s.turns.forEach((t, i) => {
      i > 0 && expect(t.speaker).not.toBe(s.turns[i - 1]!.speaker);
    });
    const guest = s.turns.filter((t) => t.speaker === "guest").map((t) => t.text);
    expect(new Set(guest).size).toBe(guest.length);
    for (const line of guest) expect(pointsElsewhere(line)).toBe(false);
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
    const ch = await writeChapter(llm, {
      courseTitle: o.title,
      chapterTitle: o.chapters[0]!.title,
      objectives: o.chapters[0]!.objectives,
      passages,
    });
    expect(ch.content.length).toBeGreaterThanOrEqual(200);
    for (const q of ch.quiz.questions) expectSoundMcq(q, passages);
  });
});

test("plain text keeps operators and identifiers: emphasis is removed only at token boundaries", () => {
  expect(plainText("In R, A %*% B is the matrix product; x %*% y too.")).toBe(
    "In R, A %*% B is the matrix product; x %*% y too.",
  );
  expect(plainText("snake_case_name and a*b*c stay; *this* and __that__ lose their marks.")).toBe(
    "snake_case_name and a*b*c stay; this and that lose their marks.",
  );
  // Markdown escapes the angle brackets of names a text writes in them (HTML's &lt;artwork&gt;).
  expect(plainText("When multiple \\<artwork\\> elements share one <b>type</b> value, the first wins.")).toBe(
    "When multiple <artwork> elements share one type value, the first wins.",
  );
});
