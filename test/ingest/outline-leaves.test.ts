/**
 * An outline leaf far longer than the outline's other leaves (#28, as the DEV LilyPond web manual's
 * "Attic": 78 pages of dated news items under one entry): the headings its layout shows join the
 * tree below the leaf; a short leaf keeps to what the outline says.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Block } from "../../src/ingest/document.ts";
import { extractPdf } from "../../src/ingest/pdf.ts";
import { type LineSpec, linesPdf, prose } from "./heading-fixtures.ts";
import { scratch } from "./support.ts";

const LIMITS = { maxPdfPages: 1000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };
const tmp = scratch();
afterAll(() => tmp.remove());

const headings = (blocks: Block[]) =>
  blocks.filter((b) => b.kind === "heading").map((b) => ({ text: b.text, level: b.level, page: b.page }));

const NEWS_PAGES = 12;
const release = (n: number): LineSpec => ({ text: `Release 1.${n} is out`, size: 13, bold: true, gap: 8 });

async function manual(): Promise<Uint8Array> {
  const chapter = (title: string, topic: string, extra: LineSpec[] = []) => ({
    lines: [{ text: title, size: 18, bold: true }, ...prose(10, topic), ...extra, ...prose(6, `${topic} more`)],
  });
  const news = Array.from({ length: NEWS_PAGES }, (_, i) => ({
    lines: [
      // Each page opens on the last item's text running on (a repeated line at a page's top is a running head).
      ...(i === 0 ? [{ text: "News", size: 18, bold: true }] : prose(3, `release ${2 * i} more`)),
      release(2 * i + 1),
      ...prose(8, `release ${2 * i + 1}`),
      release(2 * i + 2),
      ...prose(8, `release ${2 * i + 2}`),
    ],
  }));
  return linesPdf(
    [
      chapter("Introduction", "intro"),
      chapter("Setup", "setup"),
      // A bold line in a short leaf: the outline's own say holds there.
      chapter("Usage", "usage", [{ text: "Options at a glance", size: 13, bold: true, gap: 8 }]),
      ...news,
      chapter("Contact", "contact"),
    ],
    [
      { title: "Introduction", page: 1 },
      { title: "Setup", page: 2 },
      { title: "Usage", page: 3 },
      { title: "News", page: 4 },
      { title: "Contact", page: 4 + NEWS_PAGES },
    ],
  );
}

describe("an outline leaf far longer than the others", () => {
  test("the headings its layout shows are headings one level below it; a short leaf gains none", async () => {
    const path = await tmp.write("manual.pdf", await manual());
    const r = await extractPdf(path, "manual.pdf", LIMITS);
    const releases = Array.from({ length: 2 * NEWS_PAGES }, (_, i) => ({
      text: `Release 1.${i + 1} is out`,
      level: 2,
      page: 4 + Math.floor(i / 2),
    }));
    expect(headings(r.blocks)).toEqual([
      { text: "Introduction", level: 1, page: 1 },
      { text: "Setup", level: 1, page: 2 },
      { text: "Usage", level: 1, page: 3 },
      { text: "News", level: 1, page: 4 },
      ...releases,
      { text: "Contact", level: 1, page: 4 + NEWS_PAGES },
    ]);
  });
});
