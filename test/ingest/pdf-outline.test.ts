/**
 * Headings from a PDF's outline: every entry becomes a heading at its page, found in the text
 * however the page prints it, or set there when the page does not carry it; levels follow the
 * outline's nesting. Built documents pin each case; the corpus books pin whole outlines.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import type { Block } from "../../src/ingest/document.ts";
import { extractPdf } from "../../src/ingest/pdf.ts";
import { linesPdf, prose } from "./heading-fixtures.ts";
import { corpus, scratch } from "./support.ts";

const LIMITS = { maxPdfPages: 1000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };
const tmp = scratch();
afterAll(() => tmp.remove());

const headings = (blocks: Block[]) =>
  blocks.filter((b) => b.kind === "heading").map((b) => ({ text: b.text, level: b.level, page: b.page }));

describe("a book whose outline titles differ from its printed headings", () => {
  let path: string;
  beforeAll(async () => {
    path = await tmp.write(
      "sea.pdf",
      await linesPdf(
        [
          { lines: [{ text: "The Sea", size: 30, bold: true }, { text: "A short book about water" }] },
          {
            lines: [
              { text: "1 TIDES", size: 22, bold: true },
              ...prose(8, "tide"),
              { text: "Spring Tides", size: 14, bold: true, gap: 10 },
              ...prose(8, "spring"),
            ],
          },
          {
            lines: [
              { text: "CHAPTER TWO", size: 14, bold: true },
              { text: "Waves", size: 22, bold: true, gap: 2 },
              ...prose(14, "wave"),
            ],
          },
          { lines: prose(16, "current") },
        ],
        [
          {
            title: "Part I: Motion",
            page: 2,
            children: [
              { title: "Chapter 1: Tides", page: 2, children: [{ title: "1.1 “Spring” tides", page: 2 }] },
              { title: "Chapter 2 — Waves", page: 3 },
              { title: "Chapter 3: Currents", page: 4 },
            ],
          },
        ],
      ),
    );
  });

  test("every entry is a heading on its page, at its outline level, under the printed text where there is one", async () => {
    const r = await extractPdf(path, "sea.pdf", LIMITS);
    expect(headings(r.blocks)).toEqual([
      // Not printed: set at the top of its page, before the chapter it holds.
      { text: "Part I: Motion", level: 1, page: 2 },
      { text: "1 TIDES", level: 2, page: 2 },
      { text: "Spring Tides", level: 3, page: 2 },
      // The label line above the title is part of the heading.
      { text: "CHAPTER TWO Waves", level: 2, page: 3 },
      // Page 4 does not print its title: the heading stands before its first line.
      { text: "Chapter 3: Currents", level: 2, page: 4 },
    ]);
    const texts = r.blocks.map((b) => b.text);
    expect(texts.indexOf("Chapter 3: Currents")).toBe(texts.findIndex((t) => t.startsWith("The current line 1 ")) - 1);
  });

  test("with the outline withheld, headings come from the pages alone", async () => {
    const r = await extractPdf(path, "sea.pdf", LIMITS, { outline: false });
    const texts = headings(r.blocks).map((h) => h.text);
    expect(texts).toContain("1 TIDES");
    expect(texts).not.toContain("Part I: Motion");
    expect(texts).not.toContain("Chapter 3: Currents");
  });
});

describe("a noisy outline", () => {
  test("empty titles, repeated entries and bookmarked paragraphs (a labelled sentence however short) add no headings", async () => {
    const path = await tmp.write(
      "noisy.pdf",
      await linesPdf(
        [
          { lines: [{ text: "Overview", size: 18, bold: true }, ...prose(12, "overview")] },
          { lines: prose(12, "more") },
        ],
        [
          { title: "Overview", page: 1 },
          { title: "Overview", page: 1 },
          { title: "   ", page: 1 },
          { title: "Expected Outputs: Set of assets to be protected.", page: 2 },
          { title: "Primary Responsibility: Control Assessor.", page: 2 },
          { title: "The more line 1 tells how water moves along the shore and why it...", page: 2 },
        ],
      ),
    );
    const r = await extractPdf(path, "noisy.pdf", LIMITS);
    expect(headings(r.blocks)).toEqual([{ text: "Overview", level: 1, page: 1 }]);
  }, 60_000);
});

describe("an outline whose titles keep the footnote marks of their headings", () => {
  test("the heading is the printed line, without the small raised mark, at its place on the page", async () => {
    // A word processor bookmarks "3.1 Prepare" with its footnote reference's field text: "51F".
    const path = await tmp.write(
      "marks.pdf",
      await linesPdf(
        [
          { lines: [{ text: "3 The Process", size: 18, bold: true }, ...prose(12, "process")] },
          {
            lines: [
              ...prose(3, "lead"),
              { text: "3.1 Prepare", size: 16, bold: true, gap: 12, mark: "52" },
              ...prose(10, "prepare"),
            ],
          },
        ],
        [{ title: "3 The Process", page: 1, children: [{ title: "3.1   Prepare 51F", page: 2 }] }],
      ),
    );
    const r = await extractPdf(path, "marks.pdf", LIMITS);
    expect(headings(r.blocks)).toEqual([
      { text: "3 The Process", level: 1, page: 1 },
      { text: "3.1 Prepare", level: 2, page: 2 },
    ]);
    const texts = r.blocks.map((b) => b.text);
    expect(texts.indexOf("3.1 Prepare")).toBe(texts.findIndex((t) => t.startsWith("The prepare line 1 ")) - 1);
  }, 60_000);
});

describe("appendices titled under a label line of their own", () => {
  test("each heading holds its label, so every appendix has the appendix role, a bibliography its own", async () => {
    // The title set larger than its label; "C" and "D" read as roman numerals, "A" and "B" do not.
    const appendix = (letter: string, title: string, topic: string) => ({
      lines: [
        { text: `APPENDIX ${letter}`, size: 14, bold: true },
        { text: title, size: 18, bold: true },
        ...prose(12, topic),
      ],
    });
    const path = await tmp.write(
      "appendices.pdf",
      await linesPdf(
        [
          { lines: [{ text: "1 Introduction", size: 18, bold: true }, ...prose(14, "intro")] },
          appendix("A", "REFERENCES", "source"),
          appendix("B", "GLOSSARY", "term"),
          appendix("C", "ACRONYMS", "acronym"),
        ],
        [
          { title: "1 Introduction", page: 1 },
          { title: "REFERENCES", page: 2 },
          { title: "GLOSSARY", page: 3 },
          { title: "ACRONYMS", page: 4 },
        ],
      ),
    );
    const r = await extractPdf(path, "appendices.pdf", LIMITS);
    expect(r.blocks.filter((b) => b.kind === "heading").map((b) => [b.text, b.role])).toEqual([
      ["1 Introduction", "body"],
      ["APPENDIX A REFERENCES", "references"],
      ["APPENDIX B GLOSSARY", "appendix"],
      ["APPENDIX C ACRONYMS", "appendix"],
    ]);
  }, 60_000);
});

/** The outline as poppler reads it: the truth the headings are checked against. */
function popplerOutline(path: string): { title: string; page: number }[] {
  const xml = Bun.spawnSync(["pdftohtml", "-xml", "-i", "-q", "-stdout", "-f", "1", "-l", "1", path]).stdout.toString();
  return [...xml.matchAll(/<item page="(\d+)">([\s\S]*?)<\/item>/g)].map((m) => ({
    title: m[2]!.replace(/&amp;/g, "&").replace(/<[^>]+>/g, ""),
    page: Number(m[1]),
  }));
}

const fold = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

describe("DEV-half corpus books", () => {
  const book = (name: string) => corpus(`books/${name}`);
  test("the documents used here are in the dev half", () => {
    for (const name of ["cphb-competitive-programmers-handbook.pdf", "aaron-swartz-tribute-ebook-it.pdf"]) {
      const h = createHash("sha1").update(name).digest("hex");
      expect(Number.parseInt(h.slice(0, 8), 16) % 2).toBe(0);
    }
  });

  // An entry whose anchor ends a page ("Graph representation") has its heading at the top of the next.
  test("cphb: every one of its 153 outline entries is a heading on its page or the next", async () => {
    const path = book("cphb-competitive-programmers-handbook.pdf");
    const truth = popplerOutline(path);
    expect(truth.length).toBe(153);
    const found = headings((await extractPdf(path, "cphb.pdf", LIMITS)).blocks);
    const missing = truth.filter(
      (e) =>
        !found.some(
          (h) =>
            (h.page === e.page || h.page === e.page + 1) &&
            (fold(h.text).endsWith(fold(e.title)) || fold(e.title).endsWith(fold(h.text))),
        ),
    );
    expect(missing).toEqual([]);
  }, 300_000);

  test("Swartz anthology: its three parts are level 1 and hold their essays at level 2", async () => {
    const path = book("aaron-swartz-tribute-ebook-it.pdf");
    const h = headings((await extractPdf(path, "swartz.pdf", LIMITS)).blocks);
    const parts = h.filter((b) => /^PARTE (PRIMA|SECONDA|TERZA)$/.test(b.text));
    expect(parts.map((b) => [b.text, b.level, b.page])).toEqual([
      ["PARTE PRIMA", 1, 11],
      ["PARTE SECONDA", 1, 46],
      ["PARTE TERZA", 1, 68],
    ]);
    const second = h.slice(h.indexOf(parts[1]!) + 1, h.indexOf(parts[2]!));
    expect(second.map((b) => b.level)).toEqual([2, 2, 2, 2, 2]);
    expect(fold(second[0]!.text)).toBe(fold("Aaron non era un hacker, ma un costruttore"));
  }, 300_000);
});
