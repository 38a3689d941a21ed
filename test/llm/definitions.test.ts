import { expect, test } from "bun:test";
import { findDefinitions } from "../../src/llm/extractive/definitions.ts";
import { sentencesOf } from "../../src/llm/extractive/text.ts";

test("definitions come from subjects, not from the document pointing at itself", () => {
  const text = [
    "Section 3 is a general overview of trace tree compilation we use to capture hot code.",
    "A trace tree is a tree of native code traces representing the paths through a loop.",
    "Figure 5 is a tree with two traces and one branch trace below the trunk.",
    "This paper is an account of how we built a tracing compiler for JavaScript.",
    "The Calvin cycle is the set of reactions that fix carbon dioxide into sugars.",
    "Each trace tree grows a branch when a side exit becomes hot, and the Calvin cycle runs in the stroma.",
  ].join(" ");
  expect(findDefinitions(sentencesOf([{ id: "p", text }])).map((d) => d.term)).toEqual(["trace tree", "Calvin cycle"]);
});

test("code lines and reference lists are not sentences to teach from", () => {
  const text = [
    "## 2. Overview",
    "",
    "The trace monitor counts how often each loop back edge is executed before recording.",
    "",
    "v0 := ld state[748] // load primes from the trace activation record here",
    "",
    "## References",
    "",
    "A. Gal and M. Franz. Incremental dynamic code generation with trace trees, a technical report from Irvine.",
  ].join("\n");
  const sentences = sentencesOf([{ id: "p", text }]);
  expect(sentences.map((s) => s.text)).toEqual([
    "The trace monitor counts how often each loop back edge is executed before recording.",
  ]);
  expect(sentences[0]!.heading).toBe("2. Overview");
});
