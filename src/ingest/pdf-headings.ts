/**
 * Headings of a PDF without an outline, from the lines themselves: a short line standing alone at
 * the start of a paragraph that is set larger than the body, set in bold, or numbered ("3",
 * "3.2.1", "A.1", "IV."). Levels come from the numbering depth where there is one, and otherwise
 * from the heading's style (size, then bold) ranked against the numbered headings' styles. Text of
 * a chart (axis titles among tick labels) and label-like lines ("k: # of …") are never headings.
 */
import { CELL_SEPARATOR, type PdfLine, paragraphBreak, rightEdges, roundSize } from "./pdf-layout.ts";

const MAX_HEADING_CHARS = 150;
const MAX_HEADING_WORDS = 16;
/** Bold or numbered body-size lines are headings only when this short. */
const MAX_PLAIN_HEADING_WORDS = 12;
/** Larger than the body by this factor: a heading size. */
const LARGER = 1.15;

/** "3 Title", "3.2. Title", "A.1 Title", "A. Title", "IV. Title": the numbering and its depth. */
const NUMBERED_RE =
  /^(?:(\d{1,2}(?:\.\d{1,2}){0,4})\.?|[A-Z]\.(\d{1,2}(?:\.\d{1,2}){0,3})\.?|[A-Z]\.|[IVX]{1,5}\.)\s+(?=\p{Lu})/u;
/** "A Title": an appendix letter, a heading only when set in a heading style. */
const LETTERED_RE = /^[A-Z]\s+(?=\p{Lu}\p{Ll})/u;
/** "Figure 2:", "Fig. 3.", "Table A.1:", and IBM's "Figure 1-2 Title". */
export const CAPTION_RE = /^(?:fig(?:ure)?\.?|table)\s+(?:[A-Z]?\d+(?:\.\d+)*[.:](?=\s|$)|\d+-\d+\s)/i;
export const BULLET_RE = /^[•◦▪▫●○■□‣⁃–\u2013\uf0b7\uf0a7]\s*/;

/** "Chapter 1.", "Appendix B": a top-level heading. */
const CHAPTER_RE = /^(chapter|part|appendix)\s+(\d{1,3}|[A-Z]|[IVXLC]{1,6})\b/i;

function numberingDepth(text: string): number {
  if (CHAPTER_RE.test(text)) return 1;
  const m = NUMBERED_RE.exec(text);
  if (!m) return 0;
  if (m[1]) return m[1].split(".").length;
  if (m[2]) return m[2].split(".").length + 1;
  return 1;
}

/** Text that can be a heading: letters, short, not a sentence fragment, a caption, a label or a list item. */
function headingShape(l: PdfLine, maxWords: number, monospace: Set<string>): boolean {
  const t = l.text;
  return (
    l.upright &&
    !LABEL_RE.test(t) &&
    !monospace.has(l.font) &&
    !l.role &&
    t.length <= MAX_HEADING_CHARS &&
    t.split(" ").length <= maxWords &&
    /\p{L}{2}/u.test(t) &&
    !/[,;]$/.test(t) &&
    !t.includes(CELL_SEPARATOR) &&
    !CAPTION_RE.test(t) &&
    !BULLET_RE.test(t)
  );
}

/**
 * A label of a chart or a table rather than a title: a variable named by a letter ("k: # of
 * retrieved passages", "x = …"), a "#" standing for "number of", or an axis unit ("Latency (ms)").
 */
const LABEL_RE = /^\p{L}{1,2}\s*[:=]|(?:^|\s)#(?:\s|$)|\((?:%|ms|s|sec|MB|GB|KB|x)\)$/u;

/** A line of digits alone, smaller than the body: a chart's tick label. */
const isTick = (l: PdfLine, body: number) => /^[-−+]?[\d.,]+\s*%?$/u.test(l.text) && roundSize(l.size) < body;

/**
 * Text inside a chart: two or more tick labels within a few lines of it, beside or below it
 * (axis titles sit next to their ticks).
 */
function inChart(l: PdfLine, lines: PdfLine[], body: number): boolean {
  const reach = Math.max(l.size, body) * 4;
  const near = lines.filter(
    (o) => o !== l && isTick(o, body) && Math.abs(o.y - l.y) <= reach && o.x <= l.endX + reach && o.endX >= l.x - reach,
  );
  return near.length >= 2;
}

/** A sentence's end: a bold or numbered line ending so is a statement, not a heading. */
const endsSentence = (t: string): boolean => /[.:!?]$/.test(t) && !/^(\d{1,2}(\.\d{1,2})*|[A-Z]|[IVX]+)\.$/.test(t);

interface Candidate {
  line: PdfLine;
  style: string;
  size: number;
  bold: boolean;
  depth: number;
}

/** The next line continues a heading wrapped over lines: same font, about the same size, right below. */
const wrapsOn = (l: PdfLine, next: PdfLine | undefined): next is PdfLine =>
  !!next &&
  next.font === l.font &&
  Math.abs(next.size - l.size) <= l.size * 0.15 &&
  l.y - next.y > 0 &&
  l.y - next.y < l.size * 2 &&
  next.x >= l.x - l.size;

/** Lines a heading may wrap over. */
const MAX_HEADING_LINES = 3;

/**
 * Whether a font is bold, asked only for a body-size line that is a heading if it is bold (the
 * page is where the line stands); larger lines are asked `known` only, as their level alone depends on it.
 */
export type BoldQuery = (font: string, page: number, known?: boolean) => boolean;

/** "5.1 Title": a section number of two levels or more (lists seldom number so). */
const SECTION_NUMBER_RE = /^(\d{1,2}(?:\.\d{1,2}){1,4})\.?\s+\p{Lu}/u;

/**
 * Section numbers that have a sibling among the document's lines ("5.1" and "5.2"): numbered
 * lines that follow one another are sections even when set tight in body type.
 */
function siblingNumbers(pages: PdfLine[][]): Set<string> {
  const numbers = new Set<string>();
  for (const lines of pages)
    for (const l of lines) {
      const m = l.role ? null : SECTION_NUMBER_RE.exec(l.text);
      if (m) numbers.add(m[1]!);
    }
  const sibling = (n: string, step: number) => {
    const parts = n.split(".");
    const last = Number(parts.pop()) + step;
    return last > 0 && numbers.has([...parts, String(last)].join("."));
  };
  return new Set([...numbers].filter((n) => sibling(n, 1) || sibling(n, -1)));
}

/** Marks heading lines and their levels on every page, and whether run-in headings are bold. */
export function markHeadings(pages: PdfLine[][], body: number, isBold: BoldQuery, monospace: Set<string>): void {
  const found: Candidate[] = [];
  const sequenced = siblingNumbers(pages);
  for (const [p, all] of pages.entries()) {
    const lines = all.filter((l) => !l.role);
    const edge = rightEdges(lines);
    let prevHeading = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.runIn) line.runIn.bold = isBold(line.runIn.font, p + 1);
      const prev = lines[i - 1];
      const size = roundSize(line.size);
      // Larger than the body, or than the text on both sides of it (a heading over small print,
      // not an axis title over a chart's tick labels).
      if (inChart(line, lines, body)) {
        prevHeading = false;
        continue;
      }
      const around = [prev, lines[i + 1]].filter((l) => l !== undefined);
      const larger =
        size >= body * LARGER || (around.length > 0 && around.every((l) => size >= roundSize(l.size) * LARGER));
      const maxWords = larger ? MAX_HEADING_WORDS : MAX_PLAIN_HEADING_WORDS;
      if (!headingShape(line, maxWords, monospace) || !(!prev || prevHeading || paragraphBreak(prev, line, edge))) {
        prevHeading = false;
        continue;
      }
      let end = i;
      let text = line.text;
      while (
        end - i < MAX_HEADING_LINES - 1 &&
        wrapsOn(lines[end]!, lines[end + 1]) &&
        headingShape(lines[end + 1]!, maxWords, monospace)
      ) {
        text += ` ${lines[++end]!.text}`;
      }
      if (text.split(" ").length > maxWords) end = i;
      const last = lines[end]!;
      const next = lines[end + 1];
      const alone = !next || paragraphBreak(last, next, edge) || roundSize(next.size) !== roundSize(last.size);
      const gapAbove = !prev || prev.y - line.y > Math.max(prev.size, line.size) * 1.3 || prev.y < line.y;
      const plain = size >= body - 0.5 && alone && !endsSentence(last.text);
      const bold = !line.mixedFonts && (larger ? isBold(line.font, p + 1, true) : plain && isBold(line.font, p + 1));
      const depth = numberingDepth(line.text) || ((bold || larger) && LETTERED_RE.test(line.text) ? 1 : 0);
      const inSequence = sequenced.has(SECTION_NUMBER_RE.exec(line.text)?.[1] ?? "");
      prevHeading = larger || (bold && plain) || (depth > 0 && plain && (gapAbove || inSequence));
      if (!prevHeading) continue;
      for (let k = i; k <= end; k++)
        found.push({ line: lines[k]!, style: `${size}|${bold ? 1 : 0}`, size, bold, depth });
      i = end;
    }
  }
  assignLevels(found);
}

/**
 * Levels. Without numbered headings, styles ranked by size (bold first) give them. With numbered
 * headings, depth gives the level below the style the shallowest numbered headings use (level 2
 * when larger text, a title, stands above them); an unnumbered heading takes the level of the
 * numbered headings its size falls among, and text larger than all of them level 1.
 */
function assignLevels(found: Candidate[]): void {
  const numbered = found.filter((c) => c.depth > 0);
  if (numbered.length === 0) {
    const styles = [...new Map(found.map((c) => [c.style, c])).values()].sort(
      (a, b) => b.size - a.size || Number(b.bold) - Number(a.bold),
    );
    const rank = new Map(styles.map((c, i) => [c.style, i + 1]));
    for (const c of found) c.line.heading = Math.min(rank.get(c.style)!, 6);
    return;
  }
  const minDepth = Math.min(...numbered.map((c) => c.depth));
  const depthSize = new Map<number, number>();
  for (const c of numbered) depthSize.set(c.depth, Math.max(depthSize.get(c.depth) ?? 0, c.size));
  const topSize = depthSize.get(minDepth)!;
  const base = found.some((c) => c.size > topSize) ? 2 : 1;
  for (const c of found) {
    let level: number;
    if (c.depth > 0) level = base + c.depth - minDepth;
    else if (c.size > topSize) level = 1;
    else level = base + Math.max(0, [...depthSize.values()].filter((size) => size > c.size).length - 1);
    c.line.heading = Math.min(level, 6);
  }
}
