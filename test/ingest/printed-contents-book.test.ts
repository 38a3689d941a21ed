/**
 * A book without an outline whose printed contents give its chapters (#28; TeX for the Impatient):
 * a brief contents before the full one, the full contents on facing pages whose margins differ,
 * and a number at each page's foot that is a printer's sheet count, not the printed page number.
 * Its headings are set in body type, so only the contents can say which lines are chapters.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Block } from "../../src/ingest/document.ts";
import { extractPdf } from "../../src/ingest/pdf.ts";
import { type LineSpec, linesPdf, prose } from "./heading-fixtures.ts";
import { scratch } from "./support.ts";

const LIMITS = { maxPdfPages: 1000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };
// Extracting twenty pages takes seconds beside other work.
setDefaultTimeout(120_000);
const tmp = scratch();
afterAll(() => tmp.remove());

const headings = (blocks: Block[]) =>
  blocks.filter((b) => b.kind === "heading").map((b) => ({ text: b.text, level: b.level, page: b.page }));

/** The chapters and their sections with the printed page each starts on; printed page 1 is PDF page 5. */
const BOOK: { chapter: string; page: number; sections: [string, number][] }[] = [
  {
    chapter: "Tides",
    page: 1,
    sections: [
      ["Spring tides", 2],
      ["Neap tides", 3],
    ],
  },
  { chapter: "Currents", page: 5, sections: [["Rip currents", 6]] },
  {
    chapter: "Shores",
    page: 9,
    sections: [
      ["Sand and gravel", 10],
      ["Cliffs", 11],
    ],
  },
  { chapter: "Storms", page: 13, sections: [["Storm surge", 14]] },
];
const OFFSET = 4;
const LAST_PRINTED = 16;

/** Entries of the full contents, chapters at `left`, sections indented. */
const entries = (chapters: typeof BOOK, left: number): LineSpec[] =>
  chapters.flatMap(({ chapter, page, sections }) => [
    { text: `${BOOK.findIndex((c) => c.chapter === chapter) + 1} \\ ${chapter}   ${page}`, x: left, gap: 6 },
    ...sections.map(([title, p]) => ({ text: `${title}   ${p}`, x: left + 30 })),
  ]);

async function build(): Promise<Uint8Array> {
  const body = Array.from({ length: LAST_PRINTED }, (_, i) => {
    const printed = i + 1;
    const chapter = BOOK.findIndex((c) => c.page === printed);
    const section = BOOK.flatMap((c) => c.sections).find(([, p]) => p === printed);
    const title = chapter >= 0 ? `${chapter + 1} ${BOOK[chapter]!.chapter}` : section?.[0];
    return { lines: [...(title ? [{ text: title }] : []), ...prose(14, `page${printed}`)] };
  });
  const pages = [
    { lines: [{ text: "The Tides of Lake Morrow", size: 26, bold: true }] },
    {
      lines: [
        { text: "Brief contents", size: 18, bold: true },
        { text: "", gap: 24 },
        ...BOOK.map(({ chapter, page }, i) => ({ text: `${i + 1} \\ ${chapter}   ${page}`, x: 70, gap: 6 })),
        { text: "Index   17", x: 90 },
      ],
    },
    // PDF page 3 is a right-hand page, its margin further right than page 4's.
    { lines: [{ text: "Contents", size: 18, bold: true }, { text: "", gap: 24 }, ...entries(BOOK.slice(0, 2), 84)] },
    { lines: entries(BOOK.slice(2), 60) },
    ...body,
  ];
  // The number at every foot counts the printer's sheets from 100.
  return linesPdf(pages.map((p, i) => ({ ...p, folio: String(100 + i) })));
}

describe("a book whose printed contents give its chapters", () => {
  test("chapters are level 1 and sections level 2, on the pages the printed numbers name", async () => {
    const path = await tmp.write("tides.pdf", await build());
    const r = await extractPdf(path, "tides.pdf", LIMITS);
    const expected = BOOK.flatMap(({ chapter, page, sections }, i) => [
      { text: `${i + 1} ${chapter}`, level: 1, page: page + OFFSET },
      ...sections.map(([title, p]) => ({ text: title, level: 2, page: p + OFFSET })),
    ]);
    expect(headings(r.blocks).filter((h) => h.page! > OFFSET)).toEqual(expected);
  });
});

/**
 * A report whose printed contents list only its chapters (#28, as NIST SP 800-37 does): its
 * opening pages head "Abstract", "FOREWORD" and "Executive Summary" in the style its chapter
 * headings use, and the contents say nothing of them.
 */
async function reportWithFrontMatter(): Promise<Uint8Array> {
  const heading = (text: string, size = 14): LineSpec => ({ text, size, bold: true });
  const body = Array.from({ length: LAST_PRINTED }, (_, i) => {
    const chapter = BOOK.findIndex((c) => c.page === i + 1);
    const section = BOOK.flatMap((c) => c.sections).find(([, p]) => p === i + 1);
    const title =
      chapter >= 0 ? heading(`${chapter + 1} ${BOOK[chapter]!.chapter}`) : section && heading(section[0], 12);
    return { lines: [...(title ? [title] : []), ...prose(14, `p${i}`)] };
  });
  const pages = [
    {
      lines: [
        { text: "The Tides of Lake Morrow", size: 26, bold: true },
        // The author's name in the chapters' heading style, over an affiliation and a degree line.
        { ...heading("Mara Ellison"), gap: 40 },
        { text: "Department of Limnology, University of Lake Morrow" },
        { text: "A report submitted to the Trust for its annual review of the shore" },
        { text: "Prepared for the Lake Morrow Trust", size: 12, bold: true, gap: 40 },
        { text: "Version 2, May 2024", gap: 40 },
      ],
    },
    {
      lines: [
        heading("Abstract"),
        ...prose(6, "abstract"),
        { ...heading("Keywords"), gap: 20 },
        { text: "tides; spring tides; neap tides; tidal range; currents; rip currents; longshore drift; shores;" },
        { text: "sand and gravel beaches; cliffs; erosion; storms; storm surge; seiches; wind setup; lake levels" },
      ],
    },
    { lines: [heading("FOREWORD"), ...prose(12, "foreword")] },
    { lines: [heading("Executive Summary"), ...prose(12, "summary")] },
    {
      lines: [{ text: "Contents", size: 18, bold: true }, { text: "", gap: 24 }, ...entries(BOOK, 70)],
    },
    ...body,
  ];
  return linesPdf(pages.map((p, i) => ({ ...p, folio: i < 5 ? undefined : String(i - 4) })));
}

describe("a report whose contents list only its chapters", () => {
  test("its opening pages' headings are found in the chapters' heading style; title lines and body lines are not headings", async () => {
    const path = await tmp.write("report.pdf", await reportWithFrontMatter());
    const r = await extractPdf(path, "report.pdf", LIMITS, { outline: false });
    expect(headings(r.blocks).filter((h) => h.page! < 5)).toEqual([
      { text: "Abstract", level: 1, page: 2 },
      { text: "Keywords", level: 1, page: 2 },
      { text: "FOREWORD", level: 1, page: 3 },
      { text: "Executive Summary", level: 1, page: 4 },
    ]);
    expect(headings(r.blocks).filter((h) => h.page! > 5)).toEqual(
      BOOK.flatMap(({ chapter, page, sections }, i) => [
        { text: `${i + 1} ${chapter}`, level: 1, page: page + 5 },
        ...sections.map(([title, p]) => ({ text: title, level: 2, page: p + 5 })),
      ]),
    );
  });
});

/**
 * A report whose front heading and one contents entry wrap over two lines, whose contents end on a
 * page holding only the appendix's two entries, list a preface printed before them, name a section
 * by one letter ("2.1 C", as a programming manual names a language's section) and an appendix by a
 * title that trails off ("What ever happened to…", as OWASP ASVS 3.0.1 does).
 */
async function reportWithWrappedLines(): Promise<Uint8Array> {
  const heading = (text: string, size = 14): LineSpec => ({ text, size, bold: true });
  const SECTIONS: [string, number, number][] = [
    ["1 Tides", 1, 14],
    ["1.1 Spring tides", 2, 12],
    ["1.2 Sand and gravel beaches along the western shore of the lake", 3, 12],
    ["2 Currents", 5, 14],
    ["2.1 C", 6, 12],
    ["3 Shores", 9, 14],
    ["3.1 Cliffs", 10, 12],
    ["A What ever happened to…", 13, 14],
    ["A.1 Terms", 14, 12],
  ];
  const body = Array.from({ length: 14 }, (_, i) => {
    const title = SECTIONS.find(([, p]) => p === i + 1);
    return { lines: [...(title ? [heading(title[0], title[2])] : []), ...prose(14, `p${i}`)], folio: String(i + 1) };
  });
  const entry = ([title, page, size]: [string, number, number]): LineSpec => ({
    text: `${title}   ${page}`,
    x: size === 14 ? 70 : 100,
  });
  const pages = [
    { lines: [{ text: "The Tides of Lake Morrow", size: 26, bold: true }] },
    {
      lines: [heading("Notes to Reviewers and"), heading("the Public Comment Period"), ...prose(12, "notes")],
      folio: "ii",
    },
    { lines: [heading("Preface"), ...prose(12, "preface")], folio: "iii" },
    {
      lines: [
        { text: "Contents", size: 18, bold: true },
        { text: "", gap: 24 },
        { text: "Preface   iii", x: 70 },
        ...SECTIONS.slice(0, 2).map(entry),
        { text: "1.2 Sand and gravel beaches along the western", x: 100 },
        { text: "shore of the lake   3", x: 100 },
        ...SECTIONS.slice(3, 7).map(entry),
      ],
      folio: "iv",
    },
    { lines: SECTIONS.slice(7).map(entry), folio: "v" },
    ...body,
  ];
  return linesPdf(pages);
}

describe("a report whose headings and contents entries wrap", () => {
  test("a wrapped front heading, the preface, a wrapped entry, a one-letter section, a title ending in an ellipsis and the contents' short last page are all headings", async () => {
    const path = await tmp.write("wrapped.pdf", await reportWithWrappedLines());
    const r = await extractPdf(path, "wrapped.pdf", LIMITS, { outline: false });
    expect(headings(r.blocks)).toEqual([
      { text: "Notes to Reviewers and the Public Comment Period", level: 1, page: 2 },
      { text: "Preface", level: 1, page: 3 },
      { text: "Contents", level: 1, page: 4 },
      { text: "1 Tides", level: 1, page: 6 },
      { text: "1.1 Spring tides", level: 2, page: 7 },
      { text: "1.2 Sand and gravel beaches along the western shore of the lake", level: 2, page: 8 },
      { text: "2 Currents", level: 1, page: 10 },
      { text: "2.1 C", level: 2, page: 11 },
      { text: "3 Shores", level: 1, page: 14 },
      { text: "3.1 Cliffs", level: 2, page: 15 },
      { text: "A What ever happened to…", level: 1, page: 18 },
      { text: "A.1 Terms", level: 2, page: 19 },
    ]);
  });
});
