import { expect, test } from "bun:test";
import { findDefinitions } from "../../src/llm/extractive/definitions.ts";
import { chapterMaterial } from "../../src/llm/extractive/material.ts";
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

test("an entry's text after its dash defines its term, not a run-in heading's prose", () => {
  // DEV fsfs: "The GNU Project — A non-free library … acts as a trap …" was a card.
  const text = [
    "adequate security — Security protections commensurate with the risk resulting from the loss of information.",
    "The GNU Project — A non-free library that runs on free operating systems acts as a trap for free software developers.",
    "copy protection — Measures that prevent the copying of a work by its users.",
    // DEV R-exts: a clause opening on a gerund is prose, not what the heading names.
    "Interfacing C++ code — Compiling and linking should be done with the C++ compiler-linker rather than the linker itself.",
  ].join("\n\n");
  expect(findDefinitions(sentencesOf([{ id: "p", text }])).map((d) => d.term)).toEqual([
    "adequate security",
    "copy protection",
  ]);
});

test("a definition of 'the' term right after the code whose value it is tells of one instance, across a PDF's line breaks", () => {
  // DEV PARI/GP tutorial: "The output is a list of composite integers …" right after nfcertify(K) was a card.
  const content = [
    "The result can be certified:",
    "",
    "```",
    "K = nfinit([T, [2,5,7]]);",
    "nfcertify(K)",
    "```",
    "",
    "The output is a list of composite integers whose complete factorization must be computed in order",
    "to certify the result (which may be very hard, hence is not done on the spot).",
    "",
    "A number field is a finite extension of the field of rational numbers.",
    "Every number field has a ring of integers, and the output of nfcertify names a number field's hard discriminants.",
  ].join("\n");
  const found = chapterMaterial({ title: "Number fields", content, key_concepts: [] }, 0).definitions;
  expect(found.map((d) => d.term)).toEqual(["number field"]);
});
