/**
 * PDF text items to lines. pdf.js gives positioned text runs in content-stream order (which for
 * typeset documents is reading order, column by column); this groups runs into lines and keeps
 * what the later steps read: size, dominant font, the first run (a footnote marker is set smaller)
 * and where the line starts and ends.
 */
import type { BlockRole } from "./document.ts";

export interface PdfTextItem {
  str: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
  /** pdf.js's document-wide font id ("g_d0_f3"), resolved to a font name only when needed. */
  fontName: string;
  hasEOL: boolean;
  /** False for rotated text such as an arXiv margin stamp. */
  upright: boolean;
}

export interface PdfLine {
  text: string;
  x: number;
  y: number;
  endX: number;
  /** The font size carrying most of the line's characters. */
  size: number;
  /** The font carrying most of the line's characters. */
  font: string;
  /** Whether other fonts carry a tenth or more of the characters (a run-in bold phrase, code, math). */
  mixedFonts: boolean;
  /** Mean width of a character in the line's runs: in a fixed-pitch font, the width of every one. */
  advance: number;
  /** The first visible run: a footnote marker is a run smaller than the line. */
  lead: { text: string; size: number; font: string };
  /**
   * A paragraph's run-in heading: leading words in a font of their own, followed on the line by
   * text in another font that starts a sentence ("Selection of positive passages Because only…");
   * taken as one only when its font is bold.
   */
  runIn?: { text: string; font: string; bold?: boolean };
  upright: boolean;
  /** The line ended in a footnote mark, dropped from its text: an outline may still carry it ("PREPARE 51F"). */
  endsInMark?: boolean;
  /** Page furniture or margin text, found across pages before blocks are built. */
  role?: BlockRole;
  /** Heading level, from the outline or from numbering and typography. */
  heading?: number;
  /** The first line of a heading the outline or contents name: never joined to the heading above. */
  headingStart?: boolean;
}

/** Font sizes are compared at half-point resolution. */
export const roundSize = (size: number): number => Math.round(size * 2) / 2;

/** A run smaller than the line by this factor is a sub- or superscript. */
const SCRIPT = 0.85;

/** A gap wider than this many ems between runs of one line separates cells (a table, a tab stop). */
const CELL_GAP_EMS = 1.5;
export const CELL_SEPARATOR = " | ";

interface OpenLine extends PdfLine {
  /** Where the last visible run ends: pdf.js bridges wide gaps with whitespace runs. */
  inkEnd: number;
  baseSize: number;
  lastSize: number;
  /** Text of the leading runs in the first run's font, and whether another font has followed them. */
  leadFontText: string;
  leadFontEnded: boolean;
  chars: Map<string, number>;
  sizes: Map<number, number>;
  /** Width and characters of the visible runs, for the line's advance. */
  inkWidth: number;
  inkChars: number;
}

const dominant = <K>(counts: Map<K, number>, fallback: K): [K, number, number] => {
  let best = fallback;
  let most = -1;
  let total = 0;
  for (const [k, n] of counts) {
    total += n;
    if (n > most) [best, most] = [k, n];
  }
  return [best, most, total];
};

/**
 * A footnote's mark inside a line: a digit or symbol set small and raised right after a word or a
 * stop ("a double.¹ Clearly", "TriviaQA⁶,"). Left in, it reads as part of the word ("double.1",
 * "TriviaQA6"). An exponent follows a digit, a single-letter variable or a bracket, and stays.
 */
function footnoteMark(line: OpenLine, item: PdfTextItem): boolean {
  return (
    line.text.trim().length > 0 &&
    item.fontSize < line.baseSize * SCRIPT &&
    item.y - line.y > line.baseSize * 0.2 &&
    /^(\d{1,2}|[*∗†‡§¶])$/u.test(item.str.trim()) &&
    /(\p{L}{2}|\p{L}[.,;:]|[”’"])$/u.test(line.text)
  );
}

export function itemsToLines(items: PdfTextItem[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let cur: OpenLine | null = null;
  const close = () => {
    const l = cur;
    cur = null;
    if (!l?.text.trim()) return;
    const [font, most, total] = dominant(l.chars, l.font);
    const [size] = dominant(l.sizes, l.size);
    const rest = l.text.slice(l.leadFontText.length).trim();
    const runIn =
      l.leadFontEnded &&
      /^\p{Lu}[\p{L}-]*(?:\s+[\p{L}-]+){1,7}$/u.test(l.leadFontText.trim()) &&
      /^\p{Lu}\p{Ll}/u.test(rest)
        ? { text: l.leadFontText.replace(/\s+/g, " ").trim(), font: l.lead.font }
        : undefined;
    lines.push({
      text: l.text.replace(/\s+/g, " ").trim(),
      x: l.x,
      y: l.y,
      endX: l.endX,
      size,
      font,
      mixedFonts: most < total * 0.9,
      advance: l.inkChars > 0 ? l.inkWidth / l.inkChars : l.size / 2,
      lead: l.lead,
      ...(runIn ? { runIn } : {}),
      upright: l.upright,
      ...(l.endsInMark ? { endsInMark: true } : {}),
    });
  };
  // pdf.js ends a line (hasEOL) before a sub- or superscript set below or above it; a script
  // that continues the line geometrically stays on it.
  let eol = false;
  for (const item of items) {
    const open = cur as OpenLine | null;
    const size = item.fontSize || 1;
    const reach =
      open === null ? 0 : size < open.baseSize * SCRIPT ? open.baseSize * 0.7 : Math.max(open.baseSize, size) * 0.5;
    const sameLine =
      open !== null &&
      open.upright === item.upright &&
      (!item.upright || (Math.abs(item.y - open.y) <= reach && item.x >= open.endX - Math.max(open.baseSize, size)));
    if (item.str.length > 0) {
      const script = open !== null && (size < open.baseSize * SCRIPT || open.lastSize < open.baseSize * SCRIPT);
      if (!sameLine || (eol && !script)) close();
      eol = false;
      const visible = item.str.trim().length > 0;
      if (!cur && !visible) continue;
      // A run that opens with spaces (a listing indented with them) starts where its ink does.
      const lead = item.str.length - item.str.trimStart().length;
      cur ??= {
        text: "",
        x: item.x + (lead * item.width) / item.str.length,
        y: item.y,
        endX: item.x,
        inkEnd: item.x,
        size,
        baseSize: size,
        lastSize: size,
        leadFontText: "",
        leadFontEnded: false,
        font: item.fontName,
        mixedFonts: false,
        advance: 0,
        lead: { text: item.str.trim(), size, font: item.fontName },
        upright: item.upright,
        chars: new Map(),
        sizes: new Map(),
        inkWidth: 0,
        inkChars: 0,
      };
      const line = cur;
      // A dropped mark keeps the space it carries ("1 " before the next word).
      if (visible && footnoteMark(line, item)) {
        line.text += /\s$/.test(item.str) ? " " : "";
        line.inkEnd = item.x + item.width;
        line.endX = Math.max(line.endX, line.inkEnd);
        line.lastSize = size;
        line.endsInMark = true;
        if (item.hasEOL) eol = true;
        continue;
      }
      if (visible) {
        line.endsInMark = false;
        const gap = item.x - line.inkEnd;
        if (line.text.trim() && line.upright && gap > size * CELL_GAP_EMS)
          line.text = `${line.text.trimEnd()}${CELL_SEPARATOR}`;
        else if (line.text && gap > size * 0.15 && !/\s$/.test(line.text) && !/^\s/.test(item.str)) line.text += " ";
        line.inkEnd = item.x + item.width;
        line.lastSize = size;
        line.inkWidth += item.width;
        line.inkChars += item.str.length;
        const n = item.str.trim().length;
        line.chars.set(item.fontName, (line.chars.get(item.fontName) ?? 0) + n);
        const key = roundSize(size);
        line.sizes.set(key, (line.sizes.get(key) ?? 0) + n);
        // The baseline of the largest run is the line's: a superscript marker sits higher.
        if (size > line.baseSize) [line.baseSize, line.y] = [size, item.y];
      }
      line.text += item.str;
      if (!line.leadFontEnded && (!visible || item.fontName === line.lead.font)) line.leadFontText = line.text;
      else line.leadFontEnded = true;
      line.endX = Math.max(line.endX, item.x + item.width);
    }
    if (item.hasEOL) eol = true;
  }
  close();
  return lines;
}

/** The most common font size, weighted by characters: the body text. */
export function bodyFontSize(pages: PdfLine[][]): number {
  const chars = new Map<number, number>();
  for (const lines of pages)
    for (const l of lines)
      if (!l.role) chars.set(roundSize(l.size), (chars.get(roundSize(l.size)) ?? 0) + l.text.length);
  return dominant(chars, 0)[0];
}

const SOFT_HYPHEN = "\u00ad";

/**
 * The next line of a paragraph appended. A word broken at a line end ("exam-" / "ple") is joined
 * with a soft hyphen: only clean-text, knowing the whole document's words, can tell "example" from
 * "well-known". Lines of cells stay lines.
 */
export function joinLine(paragraph: string, next: string): string {
  if (!paragraph) return next;
  if (/\p{L}-$/u.test(paragraph) && /^\p{L}/u.test(next)) return paragraph.slice(0, -1) + SOFT_HYPHEN + next;
  const last = paragraph.slice(paragraph.lastIndexOf("\n") + 1);
  if (last.includes(CELL_SEPARATOR) || next.includes(CELL_SEPARATOR)) return `${paragraph}\n${next}`;
  return `${paragraph} ${next}`;
}

/** Dot leaders ending in a page number: a table-of-contents entry, a paragraph of its own. */
const TOC_ENTRY_RE = /(\.\s?){3,}\s*\d+$/;

/**
 * The right edge of the text block each line belongs to (lines grouped by where they start), so a
 * line ending well short of it can be recognised as the last line of a paragraph.
 */
export function rightEdges(lines: PdfLine[]): (l: PdfLine) => number {
  const edges = new Map<number, number>();
  for (const l of lines) {
    const key = Math.round(l.x / 10);
    edges.set(key, Math.max(edges.get(key) ?? 0, l.endX));
  }
  return (l) => edges.get(Math.round(l.x / 10)) ?? l.endX;
}

/** A line cut inside a word ("measure-" then "ment over …"): the paragraph goes on, however short the line. */
const splitsWord = (prev: PdfLine, line: PdfLine) => /\p{L}-$/u.test(prev.text) && /^\p{Ll}/u.test(line.text);

/**
 * Whether a new paragraph starts between two consecutive lines: the text moved up (the next
 * column) or beside, a wider gap than line spacing, another font size, or the first line ended
 * well short of its text block's right edge, unless it ends inside a word the next line finishes
 * (ragged-right text hyphenates short lines too).
 */
export function paragraphBreak(prev: PdfLine, line: PdfLine, rightEdge: (l: PdfLine) => number): boolean {
  const size = Math.max(prev.size, line.size);
  const dy = prev.y - line.y;
  return (
    dy < -size * 0.5 ||
    dy > size * 1.75 ||
    line.x > prev.endX + size ||
    Math.abs(roundSize(prev.size) - roundSize(line.size)) >= 1 ||
    TOC_ENTRY_RE.test(prev.text) ||
    (prev.endX < rightEdge(prev) - prev.size * 4 && !splitsWord(prev, line))
  );
}
