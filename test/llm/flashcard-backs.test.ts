/**
 * A card's back reads as a definition on its own (#29): a glossary line's label is the front, not
 * the back's opening ("integer: A type that represents whole numbers." was the back of "Integer"),
 * nor a key term's definition's in the study guide.
 */
import { expect, test } from "bun:test";
import { extractiveFlashcards } from "../../src/llm/extractive/flashcards.ts";
import { extractiveStudyGuide } from "../../src/llm/extractive/study-guide.ts";

const content = [
  "integer: A type that represents whole numbers, positive or negative.",
  "",
  "string: A type that represents sequences of characters in a program.",
  "",
  "An integer can be converted to a string, and a string that holds digits can be converted to an integer.",
].join("\n");
const input = {
  courseTitle: "Values and types",
  chapters: [{ title: "Types", content, key_concepts: ["integer", "string"] }],
};

test("a glossary line's back is its definition without the term and colon before it", () => {
  expect(extractiveFlashcards(input).cards).toEqual([
    { front: "Integer", back: "A type that represents whole numbers, positive or negative." },
    { front: "String", back: "A type that represents sequences of characters in a program." },
  ]);
});

test("so is a key term's definition in the study guide", () => {
  const terms = extractiveStudyGuide(input).sections.flatMap((s) => ("items" in s ? s.items : []));
  expect(terms.map((t) => t.definition)).toEqual([
    "A type that represents whole numbers, positive or negative.",
    "A type that represents sequences of characters in a program.",
  ]);
});
