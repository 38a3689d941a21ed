/**
 * A document query's work read once (#29): a passage's blocks, sentences and terms kept for the
 * next question are keyed by its text, so a passage changed by a word is read afresh, never served
 * the reading of the text it replaced; merging near-copies forgets the trigrams of a passage that
 * a longer copy replaced.
 */
import { describe, expect, test } from "bun:test";
import { extractiveAnswer } from "../../src/llm/extractive/answer.ts";
import { distinctPassages } from "../../src/llm/extractive/answer-passages.ts";
import type { AnswerPassage } from "../../src/llm/extractive/answer-sentences.ts";

const passage = (id: string, text: string): AnswerPassage => ({ id, text, heading: "Scheduling" });

describe("a passage read again", () => {
  const question = "In which year did the scheduler move to the kernel?";

  test("the same passages asked twice give the same answer", () => {
    const passages = [
      passage("a", "The scheduler moved to the kernel in 2009. It now runs every job in turn."),
      passage("b", "Jobs wait in a queue until the scheduler picks them."),
    ];
    const first = extractiveAnswer({ question, passages });
    expect(first.answer).toContain("in 2009");
    expect(extractiveAnswer({ question, passages })).toEqual(first);
    // The first answer of a process loads the word lists and the tagger.
  }, 60_000);

  test("a passage changed by a word is read afresh, not as the text it replaced", () => {
    const before = passage("a", "The scheduler moved to the kernel in 2009. It now runs every job in turn.");
    const after = passage("a", "The scheduler moved to the kernel in 2014. It now runs every job in turn.");
    expect(extractiveAnswer({ question, passages: [before] }).answer).toContain("in 2009");
    const answer = extractiveAnswer({ question, passages: [after] }).answer;
    expect(answer).toContain("in 2014");
    expect(answer).not.toContain("2009");
  });

  test("a name the changed passage no longer holds is no longer found in it", () => {
    const asked = "What did Dijkstra propose for the scheduler?";
    const naming = passage("a", "Dijkstra proposed semaphores for the scheduler to guard shared queues.");
    const renamed = passage("a", "Hoare proposed monitors for the scheduler to guard shared queues.");
    expect(extractiveAnswer({ question: asked, passages: [naming] }).answered).toBe(true);
    expect(extractiveAnswer({ question: asked, passages: [renamed] }).answered).toBe(false);
  });
});

describe("near-copies merged", () => {
  const words = (from: number, count: number) => Array.from({ length: count }, (_, i) => `w${from + i}`).join(" ");

  test("a longer copy takes the shorter one's place, at its position", () => {
    const short = { id: "short", text: words(0, 40) };
    const other = { id: "other", text: words(500, 40) };
    const long = { id: "long", text: words(0, 60) };
    expect(distinctPassages([short, other, long]).map((p) => p.id)).toEqual(["long", "other"]);
  });

  test("a passage whose words only the replaced copy had is kept: the union forgets them", () => {
    // `long` holds 80% of `short`'s trigrams and replaces it; `tail` is the 20% `long` lacks.
    const short = { id: "short", text: words(0, 52) };
    const long = { id: "long", text: `${words(0, 42)} ${words(1000, 40)}` };
    const tail = { id: "tail", text: words(40, 12) };
    expect(distinctPassages([short, long, tail]).map((p) => p.id)).toEqual(["long", "tail"]);
  });

  test("a passage mostly inside the passages kept before it together says nothing new", () => {
    const first = { id: "first", text: words(0, 30) };
    const second = { id: "second", text: words(100, 30) };
    const both = { id: "both", text: `${words(15, 15)} ${words(100, 15)}` };
    expect(distinctPassages([first, second, both]).map((p) => p.id)).toEqual(["first", "second"]);
  });
});
