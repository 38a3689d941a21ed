/**
 * Class (d) of the reader's check (#29): a line opening on a label and a colon is a glossary entry
 * only when what follows says what the label is, a noun phrase; a run-in heading followed by a
 * clause of its own ("Byte-code compilation: the same compiler can be used to …") tells of the
 * topic, and its card would be a sentence merely under the term.
 */
import { expect, test } from "bun:test";
import { contextCard } from "../../bench/quality/item-checks.ts";
import { findDefinitions } from "../../src/llm/extractive/definitions.ts";
import type { Sentence } from "../../src/llm/extractive/text.ts";

const sentences = (texts: string[]): Sentence[] =>
  texts.map((text, index) => ({ text, index, passageId: "p", heading: null, stems: [], follows: index > 0 }));

const LINES = [
  "Byte-code compilation: the same compiler can be used to compile a source Prolog file for byte-code.",
  "Static and dynamic procedures: a procedure is either dynamic or static.",
  "Customization: the behavior of linedit can be controlled via an environment variable called LINEDIT.",
  "Beware: an assignment to the hyphen character is not undone at the end of a group.",
  "Stream: a sequence of characters that a program reads from a source or writes to a sink.",
  "Atom table: the table of every atom that a running program has created so far.",
];

test("a run-in heading and its clause is no definition; a label and its noun phrase is", { timeout: 60_000 }, () => {
  const found = findDefinitions(sentences(LINES));
  expect(found.map((d) => d.term)).toEqual(["Stream", "Atom table"]);
  for (const d of found) expect(contextCard({ front: d.term, back: d.sentence.text })).toBe(false);
});
