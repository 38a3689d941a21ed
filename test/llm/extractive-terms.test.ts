/** Noun phrases and distractors of the built-in engine, on the Wikipedia page of the corpus. */
import { expect, test } from "bun:test";
import { termDistractors } from "../../src/llm/extractive/distractors.ts";
import { keyPhrases, phraseRuns } from "../../src/llm/extractive/keyphrases.ts";
import { plainText } from "../../src/llm/extractive/text.ts";
import { corpusDocs } from "./corpus.ts";

const text = corpusDocs
  .wikipedia()
  .map((p) => plainText(p.text))
  .join("\n\n");
const sentenceWith = (s: string) =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) => x.trim())
    .find((x) => x.includes(s))!;

test("a verb the tagger reads as a plural noun ends the noun phrase before it", () => {
  const pledge = sentenceWith("pledges to support the Mozilla Manifesto");
  const runs = phraseRuns([pledge])[0]!.map((r) => r.join(" "));
  expect(runs).toContain("Mozilla Foundation");
  expect(runs).not.toContain("Mozilla Foundation pledges");
  // "…; and Promote the Mozilla Manifesto principles in public discourse…": "Promote" is the verb.
  const promote = sentenceWith("Promote the Mozilla Manifesto principles");
  expect(phraseRuns([promote])[0]!.flat()).not.toContain("Promote");
  // A plural noun before an article after a preposition stays a noun ("in most benchmarks the …").
  expect(phraseRuns(["In most benchmarks the tracer wins."])[0]!.map((r) => r.join(" "))).toContain("benchmarks");
});

test("a hyphenated word is one word of a phrase, not a phrase of its last part", () => {
  const runs = phraseRuns(["Finally, we explore in-batch negative training with hard negatives."])[0]!;
  expect(runs.map((r) => r.join(" "))).toContain("in-batch negative training");
  expect(runs.flat()).not.toContain("batch");
});

test("a plural answer gets plural distractors when the course has them", () => {
  const terms = keyPhrases(text, 60).map((p) => p.phrase);
  const sentence = sentenceWith("Some devices using this OS include");
  const plurals = terms.filter((t) => /^\p{Ll}[\p{Ll}\s-]*[^s]s$/u.test(t));
  expect(plurals.length).toBeGreaterThanOrEqual(3);
  for (let seed = 0; seed < 20; seed++) {
    const wrong = termDistractors("devices", terms, sentence, seed);
    expect(wrong).toHaveLength(3);
    for (const w of wrong) expect(w).toMatch(/s$/);
  }
});
