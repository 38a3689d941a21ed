/**
 * Tesseract's layout to blocks. Its automatic segmentation already orders blocks and paragraphs
 * for reading (column by column); each paragraph becomes a block: a heading when its text stands
 * well above the page's body size, list items when its lines start with bullets or numbers, else a
 * paragraph. Lines are joined with spaces, a word broken at a line end with a soft hyphen (for
 * clean-text to decide), and words far apart on a line are table cells kept as cells.
 */
import type { Line, Block as TesseractBlock } from "tesseract.js";
import { type Block, type BlockLocation, block } from "./document.ts";

const SOFT_HYPHEN = "\u00ad";
const CELL_SEPARATOR = " | ";
/** A gap between words wider than this many row heights separates table cells. */
const CELL_GAP = 1.2;
/**
 * A paragraph of at most this many lines whose rows are this much taller than the body's is a
 * heading. Tesseract's row sizes scatter (a short table row can measure 1.4 x the body), hence the margins.
 */
const HEADING_LINES = 2;
const HEADING_RATIO = 1.5;
const TITLE_RATIO = 2.2;
/** Tesseract's page may hold noise read as text: a "line" with no letter or digit. */
const WORDY = /[\p{L}\p{N}]/u;
/** Bullets, and what Tesseract reads small bullets as (*, +, «, »). */
const BULLET = /^[•·●▪■◦‣∙○□➢►*+«»-]\s+/u;
const NUMBERED = /^\(?\d{1,3}[.)]\s+/;

/** A row's size, independent of its letters' case (Tesseract's own estimate from the font). */
const rowHeight = (l: Line): number => l.rowAttributes?.rowHeight || l.bbox.y1 - l.bbox.y0;

function lineText(line: Line): string {
  const height = rowHeight(line);
  let out = "";
  let prevEnd: number | null = null;
  for (const w of line.words) {
    const text = w.text.trim();
    if (!text) continue;
    if (prevEnd !== null) out += w.bbox.x0 - prevEnd > CELL_GAP * height ? CELL_SEPARATOR : " ";
    out += text;
    prevEnd = w.bbox.x1;
  }
  return out;
}

/** The next line of a paragraph appended (the hyphenation protocol of document.ts's extractors). */
function joinLine(text: string, next: string): string {
  if (!text) return next;
  if (/\p{L}-$/u.test(text) && /^\p{L}/u.test(next)) return text.slice(0, -1) + SOFT_HYPHEN + next;
  if (text.slice(text.lastIndexOf("\n") + 1).includes(CELL_SEPARATOR) || next.includes(CELL_SEPARATOR))
    return `${text}\n${next}`;
  return `${text} ${next}`;
}

/** The row height most characters on the page are set in. */
function bodyHeight(lines: { line: Line; text: string }[]): number {
  const counts = new Map<number, number>();
  for (const { line, text } of lines) {
    const h = Math.round(rowHeight(line));
    counts.set(h, (counts.get(h) ?? 0) + text.length);
  }
  let best = 0;
  let most = -1;
  for (const [h, n] of counts) if (n > most) [best, most] = [h, n];
  return best;
}

/** A short paragraph set well above the body size, with words rather than cells. */
function isHeading(lines: { line: Line; text: string }[], height: number, body: number): boolean {
  return (
    lines.length <= HEADING_LINES &&
    body > 0 &&
    height >= HEADING_RATIO * body &&
    /\p{L}{2}/u.test(lines[0]!.text) &&
    !lines.some((l) => l.text.includes(CELL_SEPARATOR))
  );
}

export function ocrBlocks(layout: TesseractBlock[], loc: BlockLocation): Block[] {
  const paragraphs = layout.flatMap((b) =>
    (b.paragraphs ?? []).map((p) =>
      p.lines.map((line) => ({ line, text: lineText(line) })).filter((l) => WORDY.test(l.text)),
    ),
  );
  const body = bodyHeight(paragraphs.flat());
  const out: Block[] = [];
  for (const lines of paragraphs) {
    if (lines.length === 0) continue;
    const height = Math.max(...lines.map((l) => rowHeight(l.line)));
    if (isHeading(lines, height, body)) {
      out.push(
        block("heading", lines.map((l) => l.text).reduce(joinLine, ""), loc, {
          level: height >= TITLE_RATIO * body ? 1 : 2,
        }),
      );
      continue;
    }
    let item: { text: string; ordered: boolean } | null = null;
    let para = "";
    const flush = () => {
      if (item) out.push(block("list_item", item.text, loc, { level: 0, ordered: item.ordered }));
      else if (para) out.push(block("paragraph", para, loc));
      item = null;
      para = "";
    };
    for (const { text } of lines) {
      const marker = BULLET.exec(text) ?? NUMBERED.exec(text);
      if (marker) {
        flush();
        item = { text: text.slice(marker[0].length), ordered: !BULLET.test(text) };
      } else if (item) item.text = joinLine(item.text, text);
      else para = joinLine(para, text);
    }
    flush();
  }
  return out;
}
