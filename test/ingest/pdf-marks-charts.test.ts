/**
 * PDF text as a reader sees it: footnote marks are not part of words, a chart's labels are not
 * headings, and a bold run-in heading is not the first words of its paragraph's sentence.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { ExtractResult } from "../../src/ingest/types.ts";
import { sharedExtraction } from "../helpers/shared-extraction.ts";
import { corpus } from "./support.ts";

const LIMITS = { maxPdfPages: 1000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };
// Each paper is parsed once per run for every file that reads it.
const extract = (name: string) => sharedExtraction(corpus(`pdf/${name}`), LIMITS);
const text = (r: ExtractResult) => r.blocks.map((b) => b.text).join("\n");

describe("DPR paper", () => {
  let r: ExtractResult;
  beforeAll(async () => {
    r = await extract("dpr-paper-multi-column.pdf");
  });

  test("Figure 1's axis title, set among its tick labels, is not a heading", () => {
    const headings = r.blocks.filter((b) => b.kind === "heading").map((b) => b.text);
    expect(headings).not.toContain("k: # of retrieved passages");
    expect(headings).toContain("5.2 Ablation Study on Model Training");
  });

  test("footnote marks after a word or a stop are left out, the footnotes keep their own markers", () => {
    const t = text(r);
    expect(t).toContain("TREC, WebQuestions and TriviaQA, we use the highest-ranked passage");
    expect(t).toContain("21,015,324 passages in the end. Each passage");
    expect(t).not.toMatch(/\bTriviaQA6\b|\bend\.5\b|\bpool\.7\b/);
    const notes = r.blocks.filter((b) => b.kind === "footnote");
    expect(notes.some((b) => b.label === "8" && b.text.startsWith("SQuAD is limited"))).toBe(true);
  });

  test("a bold run-in heading stands apart from the sentence it opens", () => {
    const paragraphs = r.blocks.filter((b) => b.kind === "paragraph").map((b) => b.text);
    // Read as one sentence it was "Selection of positive passages Because only pairs of questions …".
    expect(paragraphs).toContain("Selection of positive passages");
    expect(paragraphs.some((t) => t.startsWith("Because only pairs of questions and answers are provided"))).toBe(true);
    expect(paragraphs.some((t) => /passages Because only|passages We use/.test(t))).toBe(false);
  });
});

test("TraceMonkey and the R manual: a raised mark after a word is not read as part of it", async () => {
  const tm = text(await extract("tracemonkey.pdf"));
  expect(tm).toContain("convert any integer result back to a double. Clearly, a JavaScript VM");
  // A subscript is not a footnote mark: trace "T23,1" reads as before.
  expect(tm).toContain("a trace T23,1 is recorded");
  const r = text(await extract("R-intro.pdf"));
  expect(r).not.toMatch(/\b(limited3|allowed1|almost2|statef2)\b/);
});
