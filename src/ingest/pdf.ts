/**
 * PDF to blocks, one segment per page (page numbers kept for citations). Text pages go through
 * lines (pdf-layout), page furniture (pdf-furniture), headings (from the outline, else the printed
 * contents page, else numbering and typography: pdf-outline, pdf-toc, heading-match, pdf-headings)
 * and blocks (pdf-blocks), with words split across page breaks joined (break-hyphens) and glossary
 * entries run on over them carried to their terms (pdf-blocks); pages
 * without a text layer (scans) are OCR'd from their embedded images while the text pages are read.
 */
import { getDocumentProxy } from "unpdf";
import { AppError } from "../errors.ts";
import { carryBrokenWords } from "./break-hyphens.ts";
import { type Block, LOST_TEXT } from "./document.ts";
import { markFrontHeadings, markSubsections, placeHeadings } from "./heading-match.ts";
import { leafLines, longLeaves } from "./outline-leaves.ts";
import { type GlossaryCarry, pageBlocks } from "./pdf-blocks.ts";
import type { PdfDocument } from "./pdf-document.ts";
import { joinDropCaps } from "./pdf-drop-caps.ts";
import { boldFonts } from "./pdf-fonts.ts";
import { markFurniture } from "./pdf-furniture.ts";
import { markHeadings } from "./pdf-headings.ts";
import { bodyFontSize, itemsToLines, type PdfLine, type PdfTextItem, roundSize } from "./pdf-layout.ts";
import { readOutline } from "./pdf-outline.ts";
import { OcrQueue, ocrPage } from "./pdf-scan.ts";
import { readContents } from "./pdf-toc.ts";
import { resultOf } from "./result.ts";
import type { ExtractResult, FileLimits } from "./types.ts";

/**
 * Text runs read from one page at most. A dense real page has a few thousand; a 2 KB PDF whose
 * form XObjects draw each other four times over, twelve deep, has 16 million, and would take hours
 * and gigabytes to read.
 */
const MAX_PAGE_TEXT_ITEMS = 100_000;

/** A page with fewer visible characters than this is treated as a scan. */
const MIN_TEXT_CHARS = 16;

const unreadable = (filename: string, why: string) => new AppError("UNREADABLE_FILE", `"${filename}" ${why}`);

async function openPdf(data: Uint8Array, filename: string, maxImagePixels: number): Promise<PdfDocument> {
  try {
    // A larger image (a forged 100k x 100k one) is skipped by pdf.js, not decoded.
    return await getDocumentProxy(data, { verbosity: 0, maxImageSize: maxImagePixels, stopAtErrors: false });
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === "PasswordException")
      throw unreadable(filename, "is password-protected; remove the password and upload it again");
    if (name === "InvalidPDFException")
      throw unreadable(filename, "is not a valid PDF (the file is damaged or truncated)");
    throw unreadable(filename, `could not be read as a PDF: ${(err as Error).message}`);
  }
}

/** Codes pdf.js gives a glyph whose font names no character for it: control codes, U+FFFD. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
const UNNAMED_GLYPHS_RE = /[\u0000-\u0008\u000e-\u001f\u007f\ufffd]+/g;

function textItems(items: unknown[]): PdfTextItem[] {
  const out: PdfTextItem[] = [];
  for (const raw of items) {
    const it = raw as { str?: string; transform?: number[]; width?: number; hasEOL?: boolean; fontName?: string };
    if (typeof it.str !== "string" || !it.transform) continue;
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = it.transform;
    out.push({
      str: it.str.replace(UNNAMED_GLYPHS_RE, LOST_TEXT),
      x: e,
      y: f,
      width: it.width ?? 0,
      fontSize: Math.hypot(c, d) || Math.hypot(a, b),
      fontName: it.fontName ?? "",
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
  if (
    !title ||
    /^untitled$/i.test(title) ||
    /\.(docx?|pdf|pptx?|tex|dvi)$/i.test(title) ||
    /^microsoft (word|powerpoint)/i.test(title)
  ) {
    return null;
  }
  return title;
}

/** Larger than the body by this factor on page 1 or 2: the document's title, when its metadata has none. */
const TITLE_SIZE = 1.15;

/** The largest text on the first two pages (wrapped lines joined), if set larger than the body. */
function largestText(pages: PdfLine[][], body: number): string | null {
  const lines = pages
    .slice(0, 2)
    .flat()
    .filter((l) => !l.role && /\p{L}/u.test(l.text));
  // A scan has no text lines on its first pages: no title from them.
  if (lines.length === 0) return null;
  const size = Math.max(...lines.map((l) => roundSize(l.size)));
  if (size < body * TITLE_SIZE) return null;
  const first = lines.findIndex((l) => roundSize(l.size) === size);
  let text = lines[first]!.text;
  for (let i = first + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (roundSize(l.size) !== size || lines[i - 1]!.y - l.y > l.size * 2 || lines[i - 1]!.y <= l.y) break;
    text += ` ${l.text}`;
  }
  return text;
}

/** The font carrying most of the text: the body's, which is not bold. */
function bodyFont(pages: PdfLine[][]): string {
  const chars = new Map<string, number>();
  for (const lines of pages) for (const l of lines) chars.set(l.font, (chars.get(l.font) ?? 0) + l.text.length);
  return [...chars].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
}

/** Of a printed contents page's entries, this share must be found in the body for it to give the headings. */
const MIN_CONTENTS_FOUND = 0.5;

/**
 * Headings from the outline whenever the PDF has one (every entry a heading, found on its page or
 * set there); else from the printed contents when most of its entries are found in the body;
 * else from numbering and typography. Bold needs font names, which cost a page's operator list:
 * a first pass asks which fonts would make a heading if bold, and only those are looked up.
 */
async function markAllHeadings(
  pdf: PdfDocument,
  pages: PdfLine[][],
  body: number,
  monospace: Set<string>,
  useOutline: boolean,
): Promise<void> {
  const outline = useOutline ? await readOutline(pdf) : [];
  const regular = bodyFont(pages);
  if (outline.length > 0) {
    placeHeadings(outline, pages, { synthesize: true, body });
    // A leaf far longer than the others has headings of its own, found as without an outline, below it.
    for (const leaf of longLeaves(outline, pages.length)) {
      const own = leafLines(pages, leaf);
      await markLayoutHeadings(pdf, own, body, regular, monospace);
      for (const l of own.flat()) if (l.heading !== undefined) l.heading = Math.min(leaf.level + l.heading, 6);
    }
    return;
  }
  const contents = readContents(pages);
  if (contents.length > 0) {
    if (placeHeadings(contents, pages, { synthesize: false, body }) >= contents.length * MIN_CONTENTS_FOUND) {
      clearHeadings(pages);
      placeHeadings(contents, pages, { synthesize: true, body });
      markSubsections(pages);
      markFrontHeadings(pages, { size: body, font: regular });
      return;
    }
    clearHeadings(pages);
  }
  await markLayoutHeadings(pdf, pages, body, regular, monospace);
}

function clearHeadings(pages: PdfLine[][]): void {
  for (const lines of pages)
    for (const l of lines) {
      delete l.heading;
      delete l.headingStart;
    }
}

/** Headings from numbering and typography; a first pass asks which fonts would make one if bold. */
async function markLayoutHeadings(
  pdf: PdfDocument,
  pages: PdfLine[][],
  body: number,
  regular: string,
  monospace: Set<string>,
): Promise<void> {
  const wanted = new Map<string, number>();
  markHeadings(
    pages,
    body,
    (font, page, known) => {
      if (!known && font !== regular && !wanted.has(font)) wanted.set(font, page);
      return false;
    },
    monospace,
  );
  const bold = await boldFonts(pdf, wanted);
  clearHeadings(pages);
  markHeadings(pages, body, (font) => bold.has(font), monospace);
}

type PdfPage = Awaited<ReturnType<PdfDocument["getPage"]>>;
type TextContent = Awaited<ReturnType<PdfPage["getTextContent"]>>;

/**
 * The page's text content, read as pdf.js streams it out (it gives the event loop back every few
 * milliseconds) and given up once it passes the page's budget of text runs.
 */
async function pageText(page: PdfPage, filename: string): Promise<TextContent> {
  const reader = page.streamTextContent().getReader();
  const content: TextContent = { items: [], styles: Object.create(null), lang: null };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return content;
    for (const item of value.items) content.items.push(item);
    Object.assign(content.styles, value.styles);
    content.lang ??= value.lang;
    // Not cancelled: pdf.js would throw from its own side. The pool replaces a process whose job failed.
    if (content.items.length > MAX_PAGE_TEXT_ITEMS) {
      throw new AppError(
        "DOCUMENT_TOO_COMPLEX",
        `"${filename}" draws more than ${MAX_PAGE_TEXT_ITEMS} pieces of text on page ${page.pageNumber} (nested drawings repeated over and over); it was not read`,
      );
    }
  }
}

/** `outline: false` withholds the PDF's outline, so headings come from the pages alone (the structure bench). */
export interface PdfOptions {
  outline?: boolean;
}

export async function extractPdf(
  path: string,
  filename: string,
  limits: FileLimits,
  opts: PdfOptions = {},
): Promise<ExtractResult> {
  const pdf = await openPdf(new Uint8Array(await Bun.file(path).arrayBuffer()), filename, limits.maxImagePixels);
  try {
    if (pdf.numPages > limits.maxPdfPages) {
      throw new AppError(
        "TOO_MANY_PAGES",
        `"${filename}" has ${pdf.numPages} pages; at most ${limits.maxPdfPages} pages are extracted per PDF (INGEST_MAX_PDF_PAGES)`,
      );
    }
    const pages: PdfLine[][] = [];
    /** Fixed-pitch fonts (pdf.js names their family): code, never a heading. */
    const monospace = new Set<string>();
    const scanned: number[] = [];
    const ocr = new OcrQueue((page) => ocrPage(pdf, page));
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await pageText(page, filename);
      const lines = joinDropCaps(itemsToLines(textItems(content.items)));
      pages.push(lines);
      for (const [id, style] of Object.entries(content.styles)) if (style.fontFamily === "monospace") monospace.add(id);
      page.cleanup();
      if (visibleChars(lines) < MIN_TEXT_CHARS && scanned.push(n) <= limits.maxOcrPages) ocr.add(n);
    }
    if (scanned.length > limits.maxOcrPages) {
      throw new AppError(
        "TOO_MANY_SCANNED_PAGES",
        `"${filename}" has ${scanned.length} pages without a text layer; at most ${limits.maxOcrPages} are OCR'd per PDF (INGEST_MAX_OCR_PAGES)`,
      );
    }
    const body = bodyFontSize(pages);
    markFurniture(pages, body);
    await markAllHeadings(pdf, pages, body, monospace, opts.outline ?? true);
    const blocks: Block[] = [];
    const carry: GlossaryCarry = { entry: null };
    for (let i = 0; i < pages.length; i++) {
      const page = i + 1;
      if (scanned.includes(page)) {
        carry.entry = null;
        blocks.push(...(await ocr.blocks(page)));
      } else blocks.push(...pageBlocks(pages[i]!, page, body, monospace, carry));
    }
    const { info } = await pdf.getMetadata().catch(() => ({ info: {} }));
    const title = usableTitle(info as Record<string, unknown>) ?? largestText(pages, body);
    return resultOf(carryBrokenWords(blocks), { title, mimeType: "application/pdf", pages: pdf.numPages }, "page");
  } finally {
    await pdf.destroy();
  }
}
