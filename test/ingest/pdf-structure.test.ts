/** PDF structure on the real corpus: headings, captions, footnotes, page furniture, reading order. */
import { beforeAll, describe, expect, test } from "bun:test";
import { blocksToMarkdown, markdownToPlain } from "../../src/ingest/document.ts";
import type { ExtractResult } from "../../src/ingest/types.ts";
import { sharedExtraction } from "../helpers/shared-extraction.ts";
import { corpus } from "./support.ts";

const LIMITS = { maxPdfPages: 1000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };
// Each paper is parsed once per run for every file that reads it.
const extract = (name: string) => sharedExtraction(corpus(`pdf/${name}`), LIMITS);

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/\\/g, "")
    .replace(/[^\p{L}\p{N}\s]+/gu, "")
    .replace(/\s+/g, " ")
    .trim();
const headings = (r: ExtractResult) => r.blocks.filter((b) => b.kind === "heading");
const headingTexts = (r: ExtractResult) => headings(r).map((b) => b.text);
const bodyText = (r: ExtractResult) => r.blocks.filter((b) => b.role !== "header_footer" && b.role !== "page_number");

describe("DPR paper (two columns, body-size bold headings, arXiv stamp)", () => {
  let r: ExtractResult;
  beforeAll(async () => {
    r = await extract("dpr-paper-multi-column.pdf");
  });

  test("its numbered sections and References are headings, with levels from the numbering", () => {
    const h = headings(r);
    const level = (text: string) => h.find((b) => b.text === text)?.level;
    expect(level("1 Introduction")).toBe(2);
    expect(level("2 Background")).toBe(2);
    expect(level("3 Dense Passage Retriever (DPR)")).toBe(2);
    expect(level("3.1 Overview")).toBe(3);
    expect(level("References")).toBe(2);
    expect(level("Dense Passage Retrieval for Open-Domain Question Answering")).toBe(1);
    expect(headingTexts(r)).toContain("B Alternative Similarity Functions & Triplet Loss");
    const refs = r.blocks.findIndex((b) => b.kind === "heading" && b.text === "References");
    const after = r.blocks.slice(refs + 1, refs + 6).map((b) => b.text);
    expect(after.length).toBe(5);
    // Entries one by one, each with its year (one may be the tail of an entry running onto the next page).
    expect(after.every((t) => t.length < 600)).toBe(true);
    expect(after.filter((t) => /\b(19|20)\d\d[a-z]?\b/.test(t)).length).toBeGreaterThanOrEqual(4);
    expect(after[0]).toStartWith("Akari Asai, Kazuma Hashimoto");
  });

  test("reads column by column: abstract, then introduction, then the right column", () => {
    const texts = r.blocks.map((b) => b.text);
    const at = (s: string) => texts.findIndex((t) => t.startsWith(s));
    expect(at("Abstract")).toBeGreaterThanOrEqual(0);
    expect(at("Abstract")).toBeLessThan(at("Open-domain question answering relies"));
    expect(at("Open-domain question answering relies")).toBeLessThan(at("1 Introduction"));
    expect(at("1 Introduction")).toBeLessThan(at("Open-domain question answering (QA)"));
    expect(at("Open-domain question answering (QA)")).toBeLessThan(
      at("Retrieval in open-domain QA is usually implemented"),
    );
    const intro = texts[at("Open-domain question answering (QA)")]!;
    expect(intro).toContain("indicating the needs of improving retrieval.");
    expect(intro).not.toContain("Retrieval in open-domain QA");
  });

  test("the rotated arXiv stamp is a boilerplate block of its own, in no body paragraph", () => {
    const stamp = r.blocks.filter((b) => b.text.includes("arXiv:2004.04906"));
    expect(stamp.map((b) => [b.role, b.page])).toEqual([["boilerplate", 1]]);
  });

  test("footnotes at the foot of a page are footnote blocks with their markers", () => {
    const notes = r.blocks.filter((b) => b.kind === "footnote" && b.page === 1);
    expect(notes.map((b) => b.label)).toEqual(["∗", "1", "2"]);
    expect(notes[1]!.text).toBe(
      "The code and trained models have been released at https://github.com/facebookresearch/DPR.",
    );
  });

  test("table captions are caption blocks", () => {
    const captions = r.blocks.filter((b) => b.kind === "caption").map((b) => b.text);
    expect(captions.some((t) => t.startsWith("Table 1: Number of questions in each QA dataset."))).toBe(true);
    expect(captions.some((t) => t.startsWith("Figure 1: Retriever top-k accuracy"))).toBe(true);
  });
});

describe("tracemonkey (two columns, numbered headings, figures)", () => {
  let r: ExtractResult;
  beforeAll(async () => {
    r = await extract("tracemonkey.pdf");
  });

  test("section headings and subsections", () => {
    const h = headingTexts(r);
    for (const s of [
      "1. Introduction",
      "2. Overview: Example Tracing Run",
      "3. Trace Trees",
      "3.1 Traces",
      "6.5 Calling External Functions",
      "9. Conclusions",
      "References",
    ]) {
      expect(h).toContain(s);
    }
    expect(headings(r).find((b) => b.text === "3.1 Traces")!.level).toBe(
      headings(r).find((b) => b.text === "3. Trace Trees")!.level! + 1,
    );
    expect(r.title).toBe("Trace-based Just-in-Time Type Specialization for Dynamic Languages");
  });

  test("figure captions are caption blocks on their pages", () => {
    const captions = r.blocks.filter((b) => b.kind === "caption");
    expect(captions.find((b) => b.text.startsWith("Figure 1. Sample program: sieve of Eratosthenes."))?.page).toBe(2);
    expect(captions.find((b) => b.text.startsWith("Figure 2. State machine"))?.page).toBe(2);
    expect(captions.length).toBeGreaterThanOrEqual(12);
  });

  test("contribution bullets are list items", () => {
    const items = r.blocks.filter((b) => b.kind === "list_item" && b.page === 2).map((b) => b.text);
    expect(items[0]).toBe(
      "We explain an algorithm for dynamically forming trace trees to cover a program, representing nested loops as nested trace trees.",
    );
    expect(items.length).toBe(3);
  });
});

describe("R-intro (outline, running headers, code)", () => {
  let r: ExtractResult;
  beforeAll(async () => {
    r = await extract("R-intro.pdf");
  });

  test("chapter and section headings come from the outline with its levels", () => {
    const h = headings(r);
    const find = (text: string) => h.find((b) => b.text === text);
    expect(find("1 Introduction and preliminaries")?.level).toBe(1);
    expect(find("2 Simple manipulations; numbers and vectors")?.level).toBe(1);
    expect(find("2.1 Vectors and assignment")).toMatchObject({ level: 2, page: 14 });
    expect(find("5.7.1 Matrix multiplication")?.level).toBe(3);
    expect(h.length).toBeGreaterThan(130);
  });

  test("running headers and page numbers are furniture blocks, in no body text", () => {
    const furniture = r.blocks.filter((b) => b.role === "header_footer");
    expect(
      furniture.some((b) => b.text === "Chapter 2: Simple manipulations; numbers and vectors | 9" && b.page === 15),
    ).toBe(true);
    expect(r.blocks.some((b) => b.role === "page_number" && b.text === "8" && b.page === 14)).toBe(true);
    const others = bodyText(r).filter(
      (b) => /Chapter \d+: [A-Z]/.test(b.text) && b.role !== "toc" && b.role !== "index",
    );
    expect(others.map((b) => b.text)).toEqual([]);
    expect(r.markdown).not.toContain("Chapter 2: Simple manipulations; numbers and vectors");
  });

  test("%*% stays in the plain text, and the markdown escapes it so it reads back the same", () => {
    const para = r.blocks.find(
      (b) => b.kind === "paragraph" && b.text.startsWith("The operator %*% is used for matrix multiplication."),
    )!;
    expect(para).toBeDefined();
    const md = blocksToMarkdown([para]);
    expect(md).toContain("%\\*%");
    expect(markdownToPlain(md)).toBe(para.text);
    expect(r.blocks.some((b) => b.kind === "code" && b.text === "> A %*% B")).toBe(true);
  });
});

describe("redp5110 (no outline: typographic headings)", () => {
  test("heading recall against docling's ground truth is at least 0.9", async () => {
    const r = await extract("redp5110_sampled.pdf");
    const truth = (await Bun.file(corpus("pdf/ground_truth/redp5110_sampled.docling.md")).text())
      .split("\n")
      .filter((l) => l.startsWith("#"))
      .map((l) => norm(l.replace(/^#+/, "")));
    const ours = headingTexts(r).map(norm);
    // Docling splits "Chapter 1. Securing …" into "1" and "Securing …": both count as found in ours.
    const found = truth.filter(
      (h) =>
        ours.includes(h) ||
        ours.some((o) => o.replace(/^chapter \d+ /, "") === h || (/^\d+$/.test(h) && o.startsWith(`chapter ${h} `))),
    );
    expect(truth.length).toBe(22);
    expect(found.length / truth.length).toBeGreaterThanOrEqual(0.9);
    expect(ours).toContain("11 security fundamentals");
    expect(ours).toContain("chapter 1 securing and protecting ibm db2 data");
    // Its running footer ("© Copyright IBM Corp. 2014 …", "2 Row and Column …") is furniture.
    expect(r.blocks.some((b) => b.role === "header_footer")).toBe(true);
    expect(bodyText(r).some((b) => b.text.includes("© Copyright IBM Corp. 2014. All rights reserved."))).toBe(false);
  });
});
