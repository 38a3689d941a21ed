/**
 * A "which statement about X" question names a topic the course teaches (#29, DEV fsfs and PARI/GP
 * tutorial: "Which of these statements about good reason / implicit assumption / nice feature …"):
 * a term of the course or a phrase it writes again, never one in passing.
 */
import { expect, test } from "bun:test";
import { chapterMaterial } from "../../src/llm/extractive/material.ts";
import { mcqCandidates, poolOf } from "../../src/llm/extractive/questions.ts";

const content = [
  "Users of free software may run, study, change and share the programs they receive.",
  "Developers of free software publish the source code of every program they release.",
  "Programmers often work for a foundation that funds free software for half the pay.",
  "There is a good reason for users to feel a moral obligation to contribute to its support.",
  "A feature branch keeps the unfinished work of developers apart from the main line.",
  "Users review a feature branch before the developers merge it into the main line.",
  "Developers and users of free software share their changes with the programmers.",
].join(" ");

test("a statement's topic is a term of the course or a phrase it writes twice, not one in passing", () => {
  const m = chapterMaterial(
    { title: "Free software", content, key_concepts: ["free software", "users", "developers", "programmers"] },
    0,
  );
  const topics = mcqCandidates(m, poolOf([m]))
    .filter((c) => c.kind === "statement")
    .map((c) => /about (.+) does the course make\?$/.exec(c.question.prompt)?.[1]);
  expect(topics.length).toBeGreaterThan(0);
  expect(topics.filter((t) => /good reason|moral obligation|unfinished work|main line/.test(t ?? ""))).toEqual([]);
});
