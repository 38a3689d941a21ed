/**
 * Key concepts of the built-in engine are what the body text teaches: on the AutoGen DOCX of the
 * corpus, its opening read with the author line (as chapter 1 read it while ingest taught that line:
 * "Gagan Bansal", "Jiang" and "Ryen" were concepts), no author is a concept.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { blocksToMarkdown } from "../../src/ingest/document.ts";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";
import { isNameList } from "../../src/ingest/name-list.ts";
import { keyConcepts } from "../../src/llm/extractive/concepts.ts";
import { sentencesOf } from "../../src/llm/extractive/text.ts";
import type { Passage } from "../../src/llm/types.ts";
import { corpus, ingestConfig, scratch } from "../ingest/support.ts";

const tmp = scratch();
let authorLine = "";
let passages: Passage[] = [];

beforeAll(async () => {
  const { blocks } = await extractFile(
    corpus("docx/markitdown-autogen-paper.docx"),
    "markitdown-autogen-paper.docx",
    ingestConfig(tmp.dir),
  );
  authorLine = blocks.find((b) => b.text.includes("Gagan Bansal"))!.text;
  // The paper's opening chunk as chapter 1 read it while its author line was taught: title, authors, abstract.
  const opening = blocks
    .slice(
      0,
      blocks.findIndex((b) => b.text === "Introduction"),
    )
    .map((b) => ({
      ...b,
      role: "body" as const,
    }));
  passages = [{ id: "autogen-1", text: blocksToMarkdown(opening), filename: "autogen.docx" }];
}, 300_000);
afterAll(() => {
  stopExtractionWorkers();
  tmp.remove();
});

test("the AutoGen author line reads as a list of people; the paper's sentences do not", () => {
  expect(isNameList(authorLine)).toBe(true);
  expect(authorLine).toContain("Ryen W. White");
  const prose = sentencesOf(passages).filter((s) => !s.text.includes("Gagan"));
  expect(prose.length).toBeGreaterThan(3);
  for (const s of prose) expect(isNameList(s.text)).toBe(false);
  expect(isNameList("W. N. Venables, D. M. Smith and R. Gentleman")).toBe(true);
  expect(isNameList("Firefox, Thunderbird, SeaMonkey and Bugzilla")).toBe(false);
});

test("AutoGen: no author is a key concept, even when the author line is in the chapter's text", () => {
  const sentences = sentencesOf(passages);
  expect(sentences.some((s) => s.text.includes("Gagan Bansal"))).toBe(true);
  const concepts = keyConcepts(sentences, [passages[0]!.text.split("\n")[0]!.replace(/^# /, ""), "Abstract"], 20);
  const authors = new Set(authorLine.match(/\p{Lu}\p{Ll}+/gu)!.map((w) => w.toLowerCase()));
  const byName = concepts.filter((c) => c.split(/\s+/).every((w) => authors.has(w.toLowerCase())));
  expect(byName).toEqual([]);
  // The paper's own terms are still its concepts.
  expect(concepts).toContain("AutoGen");
  expect(concepts).toContain("LLM applications");
  expect(concepts).toContain("open-source framework");
});
