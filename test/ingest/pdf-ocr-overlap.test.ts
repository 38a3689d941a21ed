/**
 * A scanned page is OCR'd while the text pages are read (pdf-scan.ts's OcrQueue): its recognition
 * starts as soon as the page loop finds it, one page at a time, and a book with a scanned cover
 * reads as before, cover first.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { Block } from "../../src/ingest/document.ts";
import { extractPdf } from "../../src/ingest/pdf.ts";
import { OcrQueue } from "../../src/ingest/pdf-scan.ts";
import { renderText, scanPdf } from "./ocr-fixtures.ts";
import { scratch } from "./support.ts";

const tmp = scratch();
afterAll(() => tmp.remove());
const limits = { maxPdfPages: 1000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };

const paragraph = (text: string, page: number): Block => ({ kind: "paragraph", text, page, role: "body" }) as Block;

describe("OCR queue", () => {
  test("recognition starts when a page is queued, one page at a time, and a failed page fails alone", async () => {
    const started: number[] = [];
    const finish = new Map<number, () => void>();
    const queue = new OcrQueue((page) => {
      started.push(page);
      if (page === 3) return Promise.reject(new Error("unreadable image"));
      return new Promise<Block[]>((resolve) => finish.set(page, () => resolve([paragraph(`page ${page}`, page)])));
    });
    queue.add(1);
    queue.add(3);
    queue.add(5);
    await Bun.sleep(0);
    // The first page is being read before anyone asks for its blocks; the next waits for it.
    expect(started).toEqual([1]);
    finish.get(1)!();
    expect((await queue.blocks(1)).map((b) => b.text)).toEqual(["page 1"]);
    await Bun.sleep(0);
    expect(started).toEqual([1, 3, 5]);
    await expect(queue.blocks(3)).rejects.toThrow("unreadable image");
    finish.get(5)!();
    expect((await queue.blocks(5)).map((b) => b.text)).toEqual(["page 5"]);
  });
});

describe("a book with a scanned cover", () => {
  test("the cover is OCR'd and comes first, the text pages follow in order", async () => {
    const cover = renderText(1400, 300, [{ text: "The Harbour Lantern Handbook", x: 60, y: 100, size: 48 }]);
    const book = await PDFDocument.load(await scanPdf(cover, "flate-gray"));
    const font = await book.embedFont(StandardFonts.Helvetica);
    for (let n = 2; n <= 4; n++) {
      const page = book.addPage([612, 792]);
      page.drawText(`Page ${n} explains how lanterns guide the ships into the harbour at night.`, {
        x: 72,
        y: 700,
        size: 11,
        font,
      });
    }
    const path = await tmp.write("book.pdf", await book.save());
    const r = await extractPdf(path, "book.pdf", limits);
    expect(r.pages).toBe(4);
    const text = r.blocks.map((b) => `${b.page}: ${b.text}`).join("\n");
    expect(text).toContain("1: The Harbour Lantern Handbook");
    for (let n = 2; n <= 4; n++) expect(text).toContain(`${n}: Page ${n} explains how lanterns guide the ships`);
    expect(r.blocks.map((b) => b.page)).toEqual([...r.blocks.map((b) => b.page!)].sort((a, b) => a - b));
  }, 300_000);
});
