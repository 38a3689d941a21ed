/**
 * OCR of real scans through the extraction path: a scanned report, multi-column pages, image-only
 * PDFs of the encodings office scanners write (CCITT G4, 1-bit and gray Flate), a scan that already
 * carries an OCR text layer, and standalone images of several PNG layouts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { distance } from "fastest-levenshtein";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";
import {
  grayPng,
  renderText,
  type ScanEncoding,
  scanPdf,
  scanWithTextLayerPdf,
  type TextLine,
} from "./ocr-fixtures.ts";
import { corpus, ingestConfig, scratch } from "./support.ts";

const tmp = scratch();
const cfg = ingestConfig(tmp.dir);
afterAll(() => {
  stopExtractionWorkers();
  tmp.remove();
});

const words = (s: string) => s.replace(/\s+/g, " ").trim();
/** Character error rate of `text` against the truth, whitespace normalised. */
const cer = (text: string, truth: string) => distance(words(text), words(truth)) / words(truth).length;

/** Lines of 36 px text (about 9 pt at 300 dpi), 60 px apart, from (x, y). */
const lines = (texts: string[], x: number, y: number): TextLine[] =>
  texts.map((text, i) => ({ text, x, y: y + i * 60, size: 36 }));

const SHORT = [
  "Invoice number 4471 was paid in full.",
  "The scanner wrote this page in Group 4.",
  "Quarterly totals rose by nine percent.",
];
const shortScan = () => renderText(1400, 300, lines(SHORT, 60, 80));

describe("scanned PDFs", () => {
  test("the scanned medical report is OCR'd page by page, its headings and values read", async () => {
    const r = await extractFile(corpus("pdf/MEDRPT-2024-PAT-3847_medical_report_scan.pdf"), "scan.pdf", cfg);
    expect(r.pages).toBe(3);
    expect(r.segments.map((s) => s.page)).toEqual([1, 2, 3]);
    // Each page's text is its own segment's.
    expect(r.segments[0]!.markdown).toContain("COMPREHENSIVE MEDICAL REPORT");
    expect(r.segments[1]!.markdown).toContain("PHYSICAL EXAMINATION");
    expect(r.segments[2]!.markdown).toContain("TREATMENT PLAN");
    const md = r.markdown;
    for (const s of [
      "MEDRPT-2024-PAT-3847",
      "Jonathan Michael Harrison",
      "Lisinopril 10mg",
      "Metformin 500mg",
      "Atorvastatin 20mg",
      "October 28, 2024",
    ]) {
      expect(md).toContain(s);
    }
    const headings = r.blocks.filter((b) => b.kind === "heading").map((b) => b.text);
    expect(headings).toContain("COMPREHENSIVE MEDICAL REPORT");
    expect(headings).toContain("CURRENT MEDICATIONS");
    const meds = r.blocks.filter((b) => b.kind === "list_item" && b.ordered && b.page === 1).map((b) => b.text);
    expect(meds[0]).toStartWith("Lisinopril 10mg");
    expect(meds).toHaveLength(4);
  }, 300_000);

  test.each<[ScanEncoding]>([["ccitt-g4"], ["flate-1bit"], ["flate-gray"]])(
    "an image-only PDF encoded %s is OCR'd",
    async (encoding) => {
      const path = await tmp.write(`scan-${encoding}.pdf`, await scanPdf(shortScan(), encoding));
      const r = await extractFile(path, "scan.pdf", cfg);
      expect(r.pages).toBe(1);
      expect(cer(r.blocks.map((b) => b.text).join(" "), SHORT.join(" "))).toBeLessThan(0.03);
    },
  );

  test("a small image shown large is OCR'd at a readable resolution", async () => {
    // 100 dpi: 12 px text, which Tesseract misreads unless the page is drawn at 300 dpi.
    const small = renderText(470, 100, [{ text: "Quarterly totals rose by nine percent.", x: 20, y: 40, size: 12 }]);
    const r = await extractFile(
      await tmp.write("small.pdf", await scanPdf(small, "flate-gray", 100)),
      "small.pdf",
      cfg,
    );
    expect(r.markdown).toContain("Quarterly totals rose by nine percent.");
  });

  test("a scan with an OCR text layer (invisible text) keeps that text and is not OCR'd again", async () => {
    const layer = ["The text layer says cobalt harbour lanterns.", "It was written by the scanner's own OCR."];
    const img = renderText(1400, 300, lines(["The picture says granite meadow bicycles."], 60, 80));
    const r = await extractFile(
      await tmp.write("layered.pdf", await scanWithTextLayerPdf(img, layer)),
      "layered.pdf",
      cfg,
    );
    expect(r.markdown).toContain("cobalt harbour lanterns");
    expect(r.markdown).not.toContain("granite");
  });
});

describe("page segmentation", () => {
  const LEFT = [
    "Alpha opens the left column.",
    "Bravo follows on the next line.",
    "Charlie keeps the story going.",
    "Delta is fourth in this list.",
    "Echo brings the fifth remark.",
    "Foxtrot closes the left side.",
  ];
  const RIGHT = [
    "Golf starts the right column.",
    "Hotel comes after that line.",
    "India is the ninth sentence.",
    "Juliet adds the tenth point.",
    "Kilo makes it eleven in all.",
    "Lima ends the whole page.",
  ];
  const ORDER = [
    "Alpha",
    "Bravo",
    "Charlie",
    "Delta",
    "Echo",
    "Foxtrot",
    "Golf",
    "Hotel",
    "India",
    "Juliet",
    "Kilo",
    "Lima",
  ];
  const twoColumns = () => renderText(1600, 560, [...lines(LEFT, 60, 80), ...lines(RIGHT, 860, 80)]);

  test("a two-column image reads column by column", async () => {
    const r = await extractFile(await tmp.write("columns.png", grayPng(twoColumns())), "columns.png", cfg);
    const at = ORDER.map((w) => r.markdown.indexOf(w));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  test("a two-column scanned PDF reads column by column", async () => {
    const r = await extractFile(
      await tmp.write("columns.pdf", await scanPdf(twoColumns(), "ccitt-g4")),
      "columns.pdf",
      cfg,
    );
    const at = ORDER.map((w) => r.markdown.indexOf(w));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });
});

describe("images", () => {
  test("a corpus PNG gives its ground truth", async () => {
    const r = await extractFile(corpus("images/tesseractjs-testocr.png"), "testocr.png", cfg);
    const truth = await Bun.file(corpus("images/ground_truth/tesseractjs-testocr.txt")).text();
    expect(cer(r.blocks.map((b) => b.text).join(" "), truth)).toBeLessThan(0.02);
  });

  test.each([["gray16" as const], ["palette" as const]])("a %s PNG is OCR'd", async (layout) => {
    const r = await extractFile(await tmp.write(`${layout}.png`, grayPng(shortScan(), layout)), `${layout}.png`, cfg);
    expect(cer(r.blocks.map((b) => b.text).join(" "), SHORT.join(" "))).toBeLessThan(0.03);
  });

  test("a word broken at a line end is rejoined through the soft-hyphen protocol", async () => {
    const img = renderText(
      1400,
      240,
      lines(["The committee approved the exam-", "ple budget after a long debate."], 60, 80),
    );
    const r = await extractFile(await tmp.write("hyphen.png", grayPng(img)), "hyphen.png", cfg);
    expect(r.markdown).toContain("approved the example budget");
  });
});
