/**
 * Kinds of question as a learner reads them (#29): both "Which term does the course …" prompts ask
 * for a term, and every "Complete the statement" is a blank, whatever was blanked. A quiz of those
 * mixes two kinds, not four, and says so, as the item bench counts it.
 */
import { expect, test } from "bun:test";
import { kindOf } from "../../bench/quality/item-checks.ts";
import { promptKind, QUIZ_KINDS, quizKinds } from "../../src/llm/extractive/prompt-kinds.ts";

const TWO_KINDS = [
  "Which term does the course describe as “a region of memory that holds recently read pages”?",
  "Which term does the course say estimates the cost of every index on the table before the query runs?",
  "Complete the statement: The checkpoint flushes the dirty pages to the disk every _____ seconds.",
  "Complete the statement: The _____ holds recently read pages of the table in memory.",
];

test("a term asked by its description or by what it does is one kind, a blank of a figure or a term another", () => {
  expect(quizKinds(TWO_KINDS)).toBe(2);
  expect(quizKinds(TWO_KINDS)).toBeLessThan(QUIZ_KINDS);
  expect(new Set(TWO_KINDS.map((prompt) => kindOf({ type: "mcq", prompt, choices: [], answer: 0 }))).size).toBe(2);
  expect(promptKind(TWO_KINDS[0]!)).toBe(promptKind(TWO_KINDS[1]!));
});

test("a third kind makes three", () => {
  expect(quizKinds([...TWO_KINDS, "Which of these statements about buffer pool does the course make?"])).toBe(3);
});
