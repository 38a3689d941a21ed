/**
 * PDF text items to markdown. pdf.js gives positioned text runs in content-stream order (which
 * for typeset documents is reading order, column by column); this groups runs into lines, lines
 * into paragraphs, and marks as headings the short lines set larger than the body text.
 */

export interface PdfTextItem {
  str: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
  hasEOL: boolean;
  /** False for rotated text such as an arXiv margin stamp: never a heading. */
  upright: boolean;
}

export interface PdfLine {
  text: string;
  x: number;
  y: number;
  size: number;
  endX: number;
  upright: boolean;
}

/** Font sizes are compared at half-point resolution. */
const roundSize = (size: number): number => Math.round(size * 2) / 2;

export function itemsToLines(items: PdfTextItem[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let cur: (PdfLine & { sizeChars: Map<number, number> }) | null = null;
  const close = () => {
    if (cur && cur.text.trim()) {
      let size = cur.size;
      let most = 0;
      for (const [s, n] of cur.sizeChars) if (n > most) [size, most] = [s, n];
      lines.push({ text: cur.text.replace(/\s+/g, " ").trim(), x: cur.x, y: cur.y, size, endX: cur.endX, upright: cur.upright });
    }
    cur = null;
  };
  for (const item of items) {
    if (item.str.length > 0) {
      const size = item.fontSize || 1;
      const sameLine =
        cur !== null && Math.abs(item.y - cur.y) <= Math.max(cur.size, size) * 0.5 && item.x >= cur.endX - Math.max(cur.size, size);
      if (!sameLine) {
        close();
        cur = { text: "", x: item.x, y: item.y, size, endX: item.x, upright: item.upright, sizeChars: new Map() };
      }
      const line = cur!;
      const gap = item.x - line.endX;
      if (line.text && gap > size * 0.15 && !/\s$/.test(line.text) && !/^\s/.test(item.str)) line.text += " ";
      line.text += item.str;
      line.endX = item.x + item.width;
      const key = roundSize(size);
      line.sizeChars.set(key, (line.sizeChars.get(key) ?? 0) + item.str.trim().length);
    }
    if (item.hasEOL) close();
  }
  close();
  return lines;
}

/** The most common font size, weighted by characters: the body text. */
export function bodyFontSize(pages: PdfLine[][]): number {
  const chars = new Map<number, number>();
  for (const lines of pages) for (const l of lines) chars.set(roundSize(l.size), (chars.get(roundSize(l.size)) ?? 0) + l.text.length);
  let body = 0;
  let most = -1;
  for (const [size, n] of chars) if (n > most) [body, most] = [size, n];
  return body;
}

const MAX_HEADING_CHARS = 150;

const MAX_HEADING_WORDS = 16;

const isHeadingCandidate = (line: PdfLine, body: number): boolean =>
  line.upright &&
  body > 0 &&
  roundSize(line.size) >= body * 1.15 &&
  line.text.length <= MAX_HEADING_CHARS &&
  line.text.split(" ").length <= MAX_HEADING_WORDS &&
  /\p{L}/u.test(line.text);

/** Heading levels by size: the largest heading size is level 1, then 2, 3, and 4 for the rest. */
export function headingLevels(pages: PdfLine[][], body: number): Map<number, number> {
  const sizes = new Set<number>();
  for (const lines of pages) for (const l of lines) if (isHeadingCandidate(l, body)) sizes.add(roundSize(l.size));
  const levels = new Map<number, number>();
  [...sizes].sort((a, b) => b - a).forEach((size, i) => levels.set(size, Math.min(i + 1, 4)));
  return levels;
}

const BULLET_RE = /^[•◦▪▫●○■□‣⁃–]\s*/;

function joinLine(paragraph: string, next: string): string {
  if (!paragraph) return next;
  // A word broken across lines ("exam-" / "ple") is joined back.
  if (/\p{Ll}-$/u.test(paragraph) && /^\p{Ll}/u.test(next)) return paragraph.slice(0, -1) + next;
  return `${paragraph} ${next}`;
}

/** A line that could be mistaken for markdown syntax is escaped. */
const escapeLine = (text: string): string => text.replace(/^([#>+*]|\d+[.)]\s)/, "\\$1");

/** Running headers and footers repeat on many pages; digits (page numbers) aside. */
const runningKey = (l: PdfLine): string => l.text.replace(/\d+/g, "#").toLowerCase();

/**
 * Drops the first or last line of a page when that same line (page numbers aside) is the first or
 * last line of at least three pages: it is a running header or footer, noise in every chunk.
 */
export function dropRunningHeaders(pages: PdfLine[][]): PdfLine[][] {
  const counts = new Map<string, number>();
  const edges = (lines: PdfLine[]) => [...new Set([lines[0], lines[lines.length - 1]].filter((l) => l !== undefined))];
  for (const lines of pages) for (const l of edges(lines)) counts.set(runningKey(l), (counts.get(runningKey(l)) ?? 0) + 1);
  const running = (l: PdfLine) => l.text.length <= 120 && (counts.get(runningKey(l)) ?? 0) >= 3;
  return pages.map((lines) => lines.filter((l, i) => !((i === 0 || i === lines.length - 1) && running(l))));
}

/** Dot leaders ending in a page number: a table-of-contents entry, a paragraph of its own. */
const TOC_ENTRY_RE = /(\.\s?){3,}\s*\d+$/;

/**
 * The right edge of the text block each line belongs to (lines grouped by where they start), so a
 * line ending well short of it can be recognised as the last line of a paragraph.
 */
function blockRightEdges(lines: PdfLine[]): Map<number, number> {
  const edges = new Map<number, number>();
  for (const l of lines) {
    const key = Math.round(l.x / 10);
    edges.set(key, Math.max(edges.get(key) ?? 0, l.endX));
  }
  return edges;
}

export function pageMarkdown(lines: PdfLine[], body: number, levels: Map<number, number>): string {
  const kept = lines.filter((l, i) => !((i === 0 || i === lines.length - 1) && /^\d{1,4}$/.test(l.text)));
  const edges = blockRightEdges(kept);
  const endsParagraph = (l: PdfLine) => TOC_ENTRY_RE.test(l.text) || l.endX < (edges.get(Math.round(l.x / 10)) ?? 0) - l.size * 4;
  const blocks: string[] = [];
  let paragraph = "";
  let heading: { level: number; text: string; y: number; size: number } | null = null;
  let prev: PdfLine | null = null;
  const flushParagraph = () => {
    if (paragraph) blocks.push(paragraph);
    paragraph = "";
  };
  const flushHeading = () => {
    if (heading) blocks.push(`${"#".repeat(heading.level)} ${heading.text}`);
    heading = null;
  };
  for (const line of kept) {
    const level = isHeadingCandidate(line, body) ? levels.get(roundSize(line.size)) : undefined;
    if (level) {
      flushParagraph();
      const h = heading as { level: number; text: string; y: number; size: number } | null;
      // A heading wrapped over two lines is one heading.
      const wrapped = h && h.level === level && h.y - line.y > 0 && h.y - line.y < line.size * 1.8;
      if (h && wrapped && h.text.length + line.text.length < MAX_HEADING_CHARS) {
        h.text = `${h.text} ${line.text}`;
        h.y = line.y;
      } else {
        flushHeading();
        heading = { level, text: line.text, y: line.y, size: line.size };
      }
    } else {
      flushHeading();
      const bullet = BULLET_RE.test(line.text);
      if (paragraph && prev) {
        const gap = prev.y - line.y;
        if (bullet || gap > Math.max(prev.size, line.size) * 1.75 || gap < -line.size || endsParagraph(prev)) flushParagraph();
      }
      const text = bullet ? `- ${line.text.replace(BULLET_RE, "")}` : paragraph ? line.text : escapeLine(line.text);
      paragraph = joinLine(paragraph, text);
    }
    prev = line;
  }
  flushParagraph();
  flushHeading();
  return blocks.join("\n\n");
}
