/**
 * PDF to markdown, one segment per page (page numbers kept for citations). Pages without a text
 * layer (scans) are OCR'd from their embedded images.
 */
import { getDocumentProxy } from "unpdf";
import { AppError } from "../errors.ts";
import { type Block, markdownToBlocks } from "./document.ts";
import { resultOf } from "./result.ts";
import { ocrPage } from "./pdf-scan.ts";
import { bodyFontSize, dropRunningHeaders, headingLevels, itemsToLines, pageMarkdown, type PdfLine, type PdfTextItem } from "./pdf-layout.ts";
import type { ExtractResult, FileLimits } from "./types.ts";

export type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** A page with fewer visible characters than this is treated as a scan. */
const MIN_TEXT_CHARS = 16;
/** Largest image pdf.js will decode, in pixels: a forged 100k x 100k image is skipped, not decoded. */
const MAX_IMAGE_PIXELS = 40_000_000;

const unreadable = (filename: string, why: string) => new AppError(422, "UNREADABLE_FILE", `"${filename}" ${why}`);

async function openPdf(data: Uint8Array, filename: string): Promise<PdfDocument> {
  try {
    return await getDocumentProxy(data, { verbosity: 0, maxImageSize: MAX_IMAGE_PIXELS, stopAtErrors: false });
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === "PasswordException") throw unreadable(filename, "is password-protected; remove the password and upload it again");
    if (name === "InvalidPDFException") throw unreadable(filename, "is not a valid PDF (the file is damaged or truncated)");
    throw unreadable(filename, `could not be read as a PDF: ${(err as Error).message}`);
  }
}

function textItems(items: unknown[]): PdfTextItem[] {
  const out: PdfTextItem[] = [];
  for (const raw of items) {
    const it = raw as { str?: string; transform?: number[]; width?: number; hasEOL?: boolean };
    if (typeof it.str !== "string" || !it.transform) continue;
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = it.transform;
    out.push({
      str: it.str,
      x: e,
      y: f,
      width: it.width ?? 0,
      fontSize: Math.hypot(c, d) || Math.hypot(a, b),
      hasEOL: !!it.hasEOL,
      upright: a > 0 && Math.abs(b) < 1e-6 && Math.abs(c) < 1e-6,
    });
  }
  return out;
}

const visibleChars = (lines: PdfLine[]): number => lines.reduce((n, l) => n + l.text.replace(/\s/g, "").length, 0);

/** The document-info title, unless it is a converter's placeholder. */
function usableTitle(info: Record<string, unknown>): string | null {
  const title = typeof info.Title === "string" ? info.Title.trim() : "";
  if (!title || /^untitled$/i.test(title) || /\.(docx?|pdf|pptx?|tex|dvi)$/i.test(title) || /^microsoft (word|powerpoint)/i.test(title)) {
    return null;
  }
  return title;
}

export async function extractPdf(path: string, filename: string, limits: FileLimits): Promise<ExtractResult> {
  const pdf = await openPdf(new Uint8Array(await Bun.file(path).arrayBuffer()), filename);
  try {
    if (pdf.numPages > limits.maxPdfPages) {
      throw new AppError(
        422,
        "TOO_MANY_PAGES",
        `"${filename}" has ${pdf.numPages} pages; at most ${limits.maxPdfPages} pages are extracted per PDF (INGEST_MAX_PDF_PAGES)`,
      );
    }
    const pages: PdfLine[][] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      pages.push(itemsToLines(textItems((await page.getTextContent()).items)));
      page.cleanup();
    }
    const textPages = dropRunningHeaders(pages);
    const scanned = pages.map((lines, i) => (visibleChars(lines) < MIN_TEXT_CHARS ? i + 1 : 0)).filter((n) => n > 0);
    if (scanned.length > limits.maxOcrPages) {
      throw new AppError(
        422,
        "TOO_MANY_SCANNED_PAGES",
        `"${filename}" has ${scanned.length} pages without a text layer; at most ${limits.maxOcrPages} are OCR'd per PDF (INGEST_MAX_OCR_PAGES)`,
      );
    }
    const body = bodyFontSize(textPages);
    const levels = headingLevels(textPages, body);
    const blocks: Block[] = [];
    for (let i = 0; i < pages.length; i++) {
      const page = i + 1;
      blocks.push(...(scanned.includes(page) ? await ocrPage(pdf, page) : markdownToBlocks(pageMarkdown(textPages[i]!, body, levels), { page })));
    }
    const { info } = await pdf.getMetadata().catch(() => ({ info: {} }));
    const title =
      usableTitle(info as Record<string, unknown>) ??
      blocks.find((b) => b.kind === "heading" && b.level === 1 && (b.page ?? 1) <= 2)?.text ??
      null;
    return resultOf(blocks, { title, mimeType: "application/pdf", pages: pdf.numPages }, "page");
  } finally {
    await pdf.destroy();
  }
}
