/**
 * Page furniture: running headers and footers, page numbers and rotated margin text (an arXiv
 * stamp). Found across pages and marked with their roles, so they become blocks of their own and
 * never run into a body paragraph.
 */
import { type PdfLine, roundSize } from "./pdf-layout.ts";

/** "12", "Page 3", "3 of 10", "3/10", "- 4 -", roman "xii". */
const PAGE_NUMBER_RE =
  /^(page\s+)?(\d{1,4}|(?=[ivxlc])c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3}))(\s*(of|\/)\s*\d{1,4})?$/i;
const DASHED_NUMBER_RE = /^[-–—]\s*\d{1,4}\s*[-–—]$/;

export const isPageNumber = (text: string): boolean => PAGE_NUMBER_RE.test(text) || DASHED_NUMBER_RE.test(text);

/** Lines this many from the top or bottom of a page may be furniture. */
const EDGE_LINES = 2;
const MAX_FURNITURE_CHARS = 150;

/** A running header has words: a repeated "}" closing code blocks at a page's foot has none. */
const WORDY_RE = /\p{L}{2}/u;
/** A running header or footer carrying its page number at one end. */
const NUMBERED_EDGE_RE = /^([ivxlc]+|\d+)\b.*\p{L}|\p{L}.*\b(\d+|[ivxlc]+)$/iu;

/** Running headers repeat on many pages, the page number (or chapter number) aside. */
const runningKey = (l: PdfLine): string =>
  l.text
    .toLowerCase()
    .replace(/\d+/g, "#")
    .replace(/[|\s]+/g, " ")
    .trim();

interface Edges {
  top: PdfLine[];
  bottom: PdfLine[];
  /** The highest and lowest line when set apart from the text by more than line spacing. */
  apart: PdfLine[];
}

/** The top and bottom lines of a page, by position (content order may put a header last). */
function edgeLines(lines: PdfLine[]): Edges {
  const upright = lines.filter((l) => l.upright);
  if (upright.length === 0) return { top: [], bottom: [], apart: [] };
  const ys = [...new Set(upright.map((l) => Math.round(l.y)))].sort((a, b) => b - a);
  const topY = ys[Math.min(EDGE_LINES, ys.length) - 1]!;
  const bottomY = ys[Math.max(ys.length - EDGE_LINES, 0)]!;
  const apart: PdfLine[] = [];
  if (ys.length > 2) {
    const at = (y: number) => upright.filter((l) => Math.round(l.y) === y);
    for (const l of at(ys[0]!)) if (ys[0]! - ys[1]! > l.size * 1.5) apart.push(l);
    for (const l of at(ys[ys.length - 1]!)) if (ys[ys.length - 2]! - ys[ys.length - 1]! > l.size * 1.5) apart.push(l);
  }
  return {
    top: upright.filter((l) => Math.round(l.y) >= topY),
    bottom: upright.filter((l) => Math.round(l.y) <= bottomY && Math.round(l.y) < ys[0]!),
    apart,
  };
}

/**
 * Marks furniture on every page: a top or bottom line repeated (numbers aside) on three pages or
 * more, or set at the very position and size such lines take elsewhere, is a running header or
 * footer; a bare page number there is a page number; rotated text is margin boilerplate.
 */
export function markFurniture(pages: PdfLine[][], body: number): void {
  const edges = pages.map(edgeLines);
  const counts = new Map<string, number>();
  for (const { top, bottom } of edges) {
    for (const key of new Set([...top, ...bottom].map(runningKey))) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const minRepeats = Math.min(3, pages.length);
  const places = new Map<string, number>();
  const place = (l: PdfLine, dy = 0) => `${Math.round(l.y) + dy}|${roundSize(l.size)}`;
  const seenAt = (l: PdfLine) => [-1, 0, 1].reduce((n, dy) => n + (places.get(place(l, dy)) ?? 0), 0);
  for (const { top, bottom } of edges) {
    for (const l of [...top, ...bottom]) {
      if (l.text.length > MAX_FURNITURE_CHARS) continue;
      if (isPageNumber(l.text) && l.size <= body * 1.2) l.role = "page_number";
      else if (pages.length > 1 && WORDY_RE.test(l.text) && (counts.get(runningKey(l)) ?? 0) >= minRepeats)
        l.role = "header_footer";
      if (l.role === "header_footer") places.set(place(l), (places.get(place(l)) ?? 0) + 1);
    }
  }
  // A chapter's running header seen on one or two pages only still stands apart from the text,
  // where the other running headers stand.
  for (const { apart } of edges) {
    for (const l of apart) {
      if (!l.role && l.text.length <= MAX_FURNITURE_CHARS && NUMBERED_EDGE_RE.test(l.text) && seenAt(l) >= 2)
        l.role = "header_footer";
    }
  }
  for (const lines of pages) for (const l of lines) if (!l.upright) l.role = "boilerplate";
}
