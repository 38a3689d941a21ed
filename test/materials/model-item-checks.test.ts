/**
 * A model's items pass the same checks as the built-in engine's (#29): a failing exam question or
 * flashcard is sent back once with what is wrong, and one still failing is left out (a flashcard's
 * concept then gets a built-in card), never stored.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { cutQuestionProblems, definesTerm, ItemSource, questionProblems } from "../../src/llm/artefacts/item-checks.ts";
import { type ChapterSummary, writeExamQuestions, writeFlashcards } from "../../src/llm/artefacts.ts";
import { createLlm } from "../../src/llm/create.ts";
import type { McqQuestion } from "../../src/llm/schemas.ts";
import type { Llm } from "../../src/llm/types.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake-ollama.ts";
import { fast, llmConfig } from "../llm/support.ts";

let fake: FakeOllama;
let llm: Llm;
beforeAll(async () => {
  fake = startFakeOllama();
  llm = await createLlm(llmConfig({ ollamaHost: [fake.url] }), fast);
});
beforeEach(() => {
  fake.behave("ok");
  fake.respondWith(null);
});
afterAll(() => fake.close());

const chapter: ChapterSummary = {
  title: "Copyright",
  content:
    "Copyright is the exclusive right of an author to copy a work for a limited time. A licence is a permission from the copyright owner that lets others copy or change a work on stated terms. Free software is software whose licence lets every user run, study, change and share it.",
  key_concepts: ["copyright", "licence"],
};

/** Every request's last message: a retry carries the server's reasons. */
const lastMessages = () => fake.generations().map((g) => g.body!.messages.at(-1).content as string);

describe("exam questions from a model", () => {
  test("a fragment rubric point and a trivia blank are sent back once, then left out; the sound questions are kept", async () => {
    const before = fake.generations().length;
    fake.respondWith(({ body }) => {
      if (!body.format?.properties?.questions) return undefined;
      return JSON.stringify({
        questions: [
          {
            type: "short_answer",
            prompt: "Explain what a licence lets others do.",
            answer: "It lets them copy or change a work on stated terms.",
            rubric: ["A licence is a permission from the copyright owner.", "It lets others copy or change a work."],
          },
          {
            type: "short_answer",
            prompt: "Explain what copyright gives an author.",
            answer: "The exclusive right to copy the work.",
            rubric: ["Says that if a copyright owner", "gives the author"],
          },
          {
            type: "mcq",
            prompt: "Complete the statement: The GNU project began in _____ at MIT.",
            choices: ["1983", "1991", "1975", "2001"],
            answer: 0,
            explanation: "The course says so.",
          },
        ],
      });
    });
    const qs = await writeExamQuestions(llm, {
      courseTitle: "Free software",
      chapter,
      count: 3,
      types: ["mcq", "short_answer"],
    });
    expect(qs.map((q) => q.prompt)).toEqual(["Explain what a licence lets others do."]);
    for (const q of qs) expect(questionProblems(q)).toEqual([]);
    const sent = lastMessages().slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toContain('rubric point "Says that if a copyright owner"');
    expect(sent[1]).toContain("blanks trivia");
  }, 60_000);
});

describe("whole-clause choices: the model's kept, the built-in engine's cut-out ones dropped", () => {
  const whenQuestion: McqQuestion = {
    type: "mcq",
    prompt: "When does a lake freeze, according to the course?",
    choices: [
      "When the water cools below freezing",
      "When the wind blows from the north",
      "When the sun warms the surface",
      "When the rain falls on the hills",
    ],
    answer: 0,
    explanation: "The course says so.",
  };

  test("a model's question answered by a whole 'when' clause is stored as written, never sent back", async () => {
    const before = fake.generations().length;
    fake.respondWith(({ body }) =>
      body.format?.properties?.questions ? JSON.stringify({ questions: [whenQuestion] }) : undefined,
    );
    const qs = await writeExamQuestions(llm, {
      courseTitle: "Weather",
      chapter: { ...chapter, title: "Lakes", content: "A lake freezes when the water cools below freezing." },
      count: 1,
      types: ["mcq"],
    });
    expect(qs.map((q) => (q.type === "mcq" ? q.choices : []))).toEqual([whenQuestion.choices]);
    expect(fake.generations().length - before).toBe(1);
  }, 60_000);

  test("the built-in engine's check drops the same clauses as fragments cut from their sentences", () => {
    const source = new ItemSource(["A lake freezes when the water cools below freezing."]);
    expect(questionProblems(whenQuestion)).toEqual([]);
    expect(cutQuestionProblems(whenQuestion, source).join()).toContain("a fragment of its sentence");
    const whole = {
      ...whenQuestion,
      prompt: "What does a lake do as the water cools below freezing?",
      choices: ["it freezes over", "it boils away", "it floods its banks", "it dries out"],
    };
    expect(cutQuestionProblems(whole, source).join()).not.toContain("fragment");
  });
});

describe("flashcards from a model", () => {
  test("a card whose back does not define its front is sent back once, then left out, and its concept gets a built-in card", async () => {
    const before = fake.generations().length;
    fake.respondWith(({ body }) => {
      if (!body.format?.properties?.cards) return undefined;
      return JSON.stringify({
        deck_title: "Copyright",
        cards: [
          { front: "copyright", back: "Copyright is one such right." },
          {
            front: "licence",
            back: "A licence is a permission that lets others copy or change a work on stated terms.",
          },
        ],
      });
    });
    const deck = await writeFlashcards(llm, { courseTitle: "Free software", chapters: [chapter] });
    expect(deck.cards.map((c) => c.back)).not.toContain("Copyright is one such right.");
    expect(deck.cards.every(definesTerm)).toBe(true);
    expect(deck.cards.map((c) => c.front.toLowerCase())).toEqual(expect.arrayContaining(["licence"]));
    expect(deck.cards.some((c) => /^copyright is the exclusive right/i.test(c.back))).toBe(true);
    const sent = lastMessages().slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toContain('the back does not say what "copyright" is or does');
    // The built-in card comes from the builders' thread, started on first use: slow on a loaded machine.
  }, 60_000);
});
