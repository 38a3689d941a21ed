/**
 * A build's passages split once (#29): sentencesOf keeps each passage's sentences by its id, heading
 * and text, so the same passage read again gives the same sentences, numbered in the new call's
 * order, and a passage whose text or heading changed is split afresh.
 */
import { expect, test } from "bun:test";
import { sentencesOf } from "../../src/llm/extractive/text.ts";

const passage = (id: string, text: string, heading?: string) => ({ id, text, heading });

test("a passage read again gives its sentences, numbered in the order of the passages asked", () => {
  const a = passage(
    "a",
    "Heaps keep the smallest element at the root. They serve priority queues well in many graph algorithms.",
    "Heaps",
  );
  const b = passage("b", "Graphs hold vertices and the edges between them.", "Graphs");
  const first = sentencesOf([a, b]);
  const again = sentencesOf([b, a]);
  expect(again.map((s) => s.text)).toEqual([
    "Graphs hold vertices and the edges between them.",
    "Heaps keep the smallest element at the root.",
    "They serve priority queues well in many graph algorithms.",
  ]);
  expect(again.map((s) => s.index)).toEqual([0, 1, 2]);
  expect(again.map((s) => s.heading)).toEqual(["Graphs", "Heaps", "Heaps"]);
  expect(first.map((s) => s.index)).toEqual([0, 1, 2]);
  expect(first[1]!.follows).toBe(true);
});

test("a passage whose text changed is split afresh, not served the sentences it had", () => {
  sentencesOf([passage("a", "Heaps keep the smallest element at the root of the tree.")]);
  const changed = sentencesOf([passage("a", "Tries keep strings by their prefixes in a tree.")]);
  expect(changed.map((s) => s.text)).toEqual(["Tries keep strings by their prefixes in a tree."]);
  expect(changed[0]!.stems).toContain("prefix");
});

test("the same text under another heading or in another passage carries that heading and passage", () => {
  const text = "Dijkstra's algorithm finds the shortest paths from one vertex.";
  sentencesOf([passage("a", text, "Graphs")]);
  const moved = sentencesOf([passage("b", text, "Shortest paths")]);
  expect(moved.map((s) => [s.passageId, s.heading])).toEqual([["b", "Shortest paths"]]);
  expect(sentencesOf([passage("b", text)]).map((s) => s.heading)).toEqual([null]);
});
