/**
 * Headings of PDFs without an outline: from the printed contents page when there is one (its
 * entries found in the body at the pages its numbers name), else from the page's own layout and
 * numbering. Built documents pin each case; DEV-half corpus books pin the contents path on real print.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import type { Block } from "../../src/ingest/document.ts";
import { extractPdf } from "../../src/ingest/pdf.ts";
import { type LineSpec, linesPdf, prose } from "./heading-fixtures.ts";
import { corpus, scratch } from "./support.ts";

const LIMITS = { maxPdfPages: 1000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };
const tmp = scratch();
afterAll(() => tmp.remove());

const headings = (blocks: Block[]) =>
  blocks.filter((b) => b.kind === "heading").map((b) => ({ text: b.text, level: b.level, page: b.page }));

describe("a report without an outline but with a printed contents page", () => {
  // Its headings are set in body type (no size, weight or gap tells them apart): only the
  // contents page says they are headings. Body pages are numbered from 1 after two front pages.
  const contents: LineSpec[] = [
    { text: "Contents", size: 18, bold: true },
    { text: "Introduction . . . . . . . . . . . . . . . 1", gap: 12 },
    { text: "Background . . . . . . . . . . . . . 1", x: 80 },
    { text: "Methods . . . . . . . . . . . . . . . . . 2" },
    { text: "Sampling the estuary . . . . . . . . 2", x: 80 },
    { text: "Results . . . . . . . . . . . . . . . . . 3" },
  ];
  const page = (lines: LineSpec[], folio: string) => ({ lines, folio });
  const build = () =>
    linesPdf([
      { lines: [{ text: "Estuary Survey", size: 26, bold: true }, { text: "A field report" }] },
      { lines: contents },
      page([{ text: "Introduction" }, ...prose(10, "intro"), { text: "Background" }, ...prose(10, "past")], "1"),
      page([{ text: "Methods" }, ...prose(8, "method"), { text: "Sampling the estuary" }, ...prose(8, "sample")], "2"),
      page([{ text: "Results" }, ...prose(16, "result")], "3"),
    ]);

  test("its entries are the headings, on the pages the printed numbers name, levels from the indent", async () => {
    const path = await tmp.write("report.pdf", await build());
    const r = await extractPdf(path, "report.pdf", LIMITS);
    expect(headings(r.blocks)).toEqual([
      { text: "Contents", level: 1, page: 2 },
      { text: "Introduction", level: 1, page: 3 },
      { text: "Background", level: 2, page: 3 },
      { text: "Methods", level: 1, page: 4 },
      { text: "Sampling the estuary", level: 2, page: 4 },
      { text: "Results", level: 1, page: 5 },
    ]);
  });
});

describe("an ebook whose contents page has no page numbers (its entries are links)", () => {
  test("its entries are the headings, found in order on the pages after it", async () => {
    const titles = [
      "Legacy",
      "How to get a job like mine",
      "Saying goodbye to embarrassment",
      "Who writes it",
      "Open access",
    ];
    const path = await tmp.write(
      "ebook.pdf",
      await linesPdf([
        { lines: titles.map((text, i) => ({ text: `${i + 1}. ${text}` })) },
        ...titles.map((text, i) => ({ lines: [{ text }, ...prose(12, `essay${i}`)] })),
      ]),
    );
    const r = await extractPdf(path, "ebook.pdf", LIMITS);
    expect(headings(r.blocks)).toEqual(titles.map((text, i) => ({ text, level: 1, page: i + 2 })));
  });
});

describe("a one-page paper excerpt", () => {
  const paragraph = (topic: string): LineSpec[] => [
    { text: `${topic} measurements were taken at each of the forty stations along the estuary during the` },
    { text: "spring tides of the survey year, and each station was visited twice within the same week so" },
    { text: "that the readings could be compared across the tidal cycle without seasonal drift." },
  ];

  test('its "5.1 …" and "5.2 …" sections set in body type without extra space are headings', async () => {
    const path = await tmp.write(
      "excerpt.pdf",
      await linesPdf([
        {
          lines: [
            ...paragraph("Salinity"),
            { text: "5.1 Sampling Design" },
            ...paragraph("Temperature"),
            ...paragraph("Depth"),
            { text: "5.2 Statistical Analysis" },
            ...paragraph("Turbidity"),
          ],
        },
      ]),
    );
    const r = await extractPdf(path, "excerpt.pdf", LIMITS);
    expect(headings(r.blocks).map((h) => h.text)).toEqual(["5.1 Sampling Design", "5.2 Statistical Analysis"]);
    expect(r.blocks.find((b) => b.text.startsWith("Temperature"))?.kind).toBe("paragraph");
  });
});

/** The outline as poppler reads it: the truth for headings found with it withheld. */
function popplerOutline(path: string): { title: string; page: number }[] {
  const xml = Bun.spawnSync(["pdftohtml", "-xml", "-i", "-q", "-stdout", "-f", "1", "-l", "1", path]).stdout.toString();
  return [...xml.matchAll(/<item page="(\d+)">([\s\S]*?)<\/item>/g)].map((m) => ({
    title: m[2]!.replace(/&amp;/g, "&").replace(/<[^>]+>/g, ""),
    page: Number(m[1]),
  }));
}

const fold = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

describe("DEV-half corpus books with the outline withheld", () => {
  const books = ["cphb-competitive-programmers-handbook.pdf", "nist-fips201-2.pdf"];
  test("the documents used here are in the dev half", () => {
    for (const name of books) {
      const h = createHash("sha1").update(name).digest("hex");
      expect(Number.parseInt(h.slice(0, 8), 16) % 2).toBe(0);
    }
  });

  for (const name of books) {
    test(`${name}: the printed contents find 95% of the outline's entries, and few headings beside them`, async () => {
      const path = corpus(`books/${name}`);
      const truth = popplerOutline(path);
      const found = headings((await extractPdf(path, name, LIMITS, { outline: false })).blocks);
      const hit = (h: { text: string; page?: number | null }, e: { title: string; page: number }) =>
        (h.page === e.page || h.page === e.page + 1) &&
        (fold(h.text).endsWith(fold(e.title)) || fold(e.title).endsWith(fold(h.text)));
      const recalled = truth.filter((e) => found.some((h) => hit(h, e)));
      const precise = found.filter((h) => truth.some((e) => hit(h, e)));
      expect(recalled.length / truth.length).toBeGreaterThanOrEqual(0.95);
      expect(precise.length / found.length).toBeGreaterThanOrEqual(0.95);
    }, 300_000);
  }
});
