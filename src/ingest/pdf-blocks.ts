/**
 * One page's lines to blocks: headings (marked beforehand), captions, footnotes, list items, code
 * and paragraphs, in reading order; page furniture and margin text as blocks of their own roles.
 * A manual's table of terms (texinfo's `@table`: a term set in a fixed-pitch font at the margin,
 * its description indented below it or beside it on its line) reads "term — description", as an
 * HTML definition list does, so the description never loses the formula or name it describes.
 * A glossary set in two columns reads the same way (pdf-term-columns).
 * A display set apart under a paragraph that ends with a colon ("… as follows:" then a formula over
 * several lines: a fraction's numerator and denominator, an aligned derivation) is one paragraph
 * with its lines, not a paragraph per line.
 */
import { type Block, type BlockKind, type BlockRole, block } from "./document.ts";
import { BULLET_RE, CAPTION_RE } from "./pdf-headings.ts";
import { CELL_SEPARATOR, joinLine, type PdfLine, paragraphBreak, rightEdges, roundSize } from "./pdf-layout.ts";
import { entryText, type GlossaryEntry, termColumns } from "./pdf-term-columns.ts";

/**
 * The glossary entry a page ended on, carried to the next page: a definition that runs on over the
 * page break is joined to its term there.
 */
export interface GlossaryCarry {
  entry: { block: Block; parts: GlossaryEntry } | null;
}

/** "1.", "2)", "a)", "(iv)" before a list item's text. */
const ORDERED_RE = /^(\d{1,2}[.)]|[a-z][.)]|\((\d{1,2}|[a-z]|[ivx]{1,4})\))\s+(?=[^\s|])/;
const MARKER_RE = /^(\d{1,3}|[∗*†‡§¶]{1,3})$/;
const MARKED_TEXT_RE = /^(\d{1,3}|[∗*†‡§¶]{1,3})\s*(?=\p{L})/u;
/**
 * Three words of prose in a row, in any case: a sentence or a title, not a line of a displayed
 * formula (a reference's title run on under "Context Threading:" is set in like a display).
 */
const PROSE_RUN = /\p{L}{3,}\s+\p{L}{2,}\s+\p{L}{3,}/u;
/** Lines of a display stand this many of their sizes apart at most (a fraction's bar between two). */
const DISPLAY_GAP = 3.5;

interface Open {
  kind: BlockKind;
  text: string;
  extra: Partial<Block>;
  /** A code listing's lines as set, so the indentation it prints can be rebuilt. */
  rows?: PdfLine[];
}

/**
 * A listing's text with its indentation: pdf.js gives each line's position, not its leading
 * spaces, so each line is indented by the fixed-pitch characters between the listing's left edge
 * and where it starts. The smallest indentation, in whole characters of the measured advance, sets
 * the step: a listing package may space its columns a tenth off the font's glyphs, which over
 * eight characters would lose one.
 */
export function indentedListing(rows: PdfLine[]): string {
  const left = Math.min(...rows.map((r) => r.x));
  const advances = rows.map((r) => r.advance).sort((a, b) => a - b);
  const advance = advances[Math.floor(advances.length / 2)]!;
  const least = Math.min(...rows.map((r) => r.x - left).filter((d) => d > advance / 2));
  const step = Number.isFinite(least) ? least / Math.max(1, Math.round(least / advance)) : advance;
  return rows
    .map((r) => {
      const text = r.text.replaceAll(CELL_SEPARATOR, "   ");
      return step > 0 ? " ".repeat(Math.round((r.x - left) / step)) + text : text;
    })
    .join("\n");
}

/** A footnote's marker and text: a smaller leading run ("¹") or a leading number or symbol. */
function footnoteMarker(l: PdfLine): { label: string; text: string } | null {
  if (l.lead.size < l.size * 0.85 && MARKER_RE.test(l.lead.text) && l.text.startsWith(l.lead.text)) {
    return { label: l.lead.text, text: l.text.slice(l.lead.text.length).trim() };
  }
  const m = MARKED_TEXT_RE.exec(l.text);
  return m ? { label: m[1]!, text: l.text.slice(m[0].length) } : null;
}

export function pageBlocks(
  all: PdfLine[],
  page: number,
  body: number,
  monospace: ReadonlySet<string> = new Set(),
  carry: GlossaryCarry = { entry: null },
): Block[] {
  const lines = all.filter((l) => !l.role);
  const edge = rightEdges(lines);
  const topY = Math.max(...lines.map((l) => l.y));
  const out: Block[] = [];
  let open: Open | null = null;
  let prev: PdfLine | null = null;
  let listX: number | null = null;
  /** Where the open code block's lines start: a description indented past it describes it. */
  let codeX = 0;
  /** The leftmost start of the open block's lines: a display is set in from it. */
  let openLeft = 0;
  /** While a display is open, the left margin of the paragraph that announced it. */
  let displayLeft: number | null = null;

  const flush = () => {
    const text = open?.rows ? indentedListing(open.rows) : open?.text.trim();
    if (open && text?.trim()) out.push(block(open.kind, text, { page }, open.extra));
    open = null;
  };
  const start = (kind: BlockKind, text: string, extra: Partial<Block> = {}, rows?: PdfLine[]) => {
    flush();
    open = rows ? { kind, text, extra, rows } : { kind, text, extra };
  };
  /** Small text with a marker and no body text below it in its column: a footnote. */
  const footnote = (l: PdfLine) => {
    if (roundSize(l.size) > body - 1) return null;
    const marker = footnoteMarker(l);
    if (!marker) return null;
    const below = lines.some((o) => o.y < l.y - 1 && roundSize(o.size) >= body - 0.5 && o.x < l.endX && o.endX > l.x);
    return below ? null : marker;
  };

  /** A line set in from `left` below the line before, close under it, with no run of prose. */
  const displayed = (line: PdfLine, left: number): boolean =>
    prev !== null &&
    line.x > left + line.size &&
    prev.y - line.y > 0 &&
    prev.y - line.y < line.size * DISPLAY_GAP &&
    !PROSE_RUN.test(line.text);

  const glossary = termColumns(lines, monospace);
  const runOn = glossary?.continued.map((l) => l.text) ?? [];
  const carried = runOn.length > 0 ? carry.entry : null;
  if (carried) {
    carried.parts.definition = runOn.reduce(joinLine, carried.parts.definition);
    carried.block.text = entryText(carried.parts);
  }
  carry.entry = null;
  for (const line of lines) {
    if (glossary?.taken.has(line)) {
      // A glossary entry in two columns stands where its first line does, as one paragraph.
      const entry = glossary.entries.get(line);
      if (entry !== undefined) {
        flush();
        const b = block("paragraph", entryText(entry), { page });
        out.push(b);
        carry.entry = { block: b, parts: entry };
      } else if (!carried && glossary.continued[0] === line) {
        // No entry of the page before to join: the run-on text reads on its own.
        flush();
        out.push(block("paragraph", runOn.reduce(joinLine), { page }));
      }
      prev = null;
      listX = null;
      displayLeft = null;
      continue;
    }
    // Text after the page's last entry: the entry did not run on to the next page.
    carry.entry = null;
    const cur = open as Open | null;
    const inDisplay = displayLeft !== null && displayed(line, displayLeft);
    const opensDisplay =
      !inDisplay &&
      cur?.kind === "paragraph" &&
      /:$/.test(cur.text.trimEnd()) &&
      line.heading === undefined &&
      displayed(line, openLeft);
    // The text under a display starts a paragraph of its own, however the display's short lines ended.
    const broke = !prev || paragraphBreak(prev, line, edge) || (displayLeft !== null && !inDisplay);
    const entry =
      line.heading === undefined && (broke || cur?.kind === "code")
        ? (termBeside(line, monospace) ?? describes(cur, codeX, line))
        : null;
    if (line.heading !== undefined) {
      // A heading wrapped over lines stays one heading.
      const wraps =
        !line.headingStart &&
        cur?.kind === "heading" &&
        cur.extra.level === line.heading &&
        prev &&
        prev.y - line.y > 0 &&
        prev.y - line.y < line.size * 2;
      if (wraps) cur.text = `${cur.text} ${line.text}`;
      else start("heading", line.text, { level: line.heading });
    } else if (monospace.has(line.font) && !line.mixedFonts) {
      // Code keeps its lines; a gap of a blank line or two stays inside the listing. A wide gap in
      // fixed-pitch text is spaces that align columns (R's printed matrices), not a table's cells.
      const text = line.text.replaceAll(CELL_SEPARATOR, "   ");
      const continues = cur?.kind === "code" && prev && prev.y - line.y > 0 && prev.y - line.y < line.size * 3.5;
      if (continues) {
        cur.text += `\n${text}`;
        cur.rows?.push(line);
      } else {
        start("code", text, {}, [line]);
        codeX = line.x;
      }
    } else if (entry) {
      // The terms above (short code lines) and the one beside it, if any, are what it describes.
      const terms = isTermList(cur) ? cur.text.split("\n") : [];
      if (terms.length > 0) open = null;
      start("paragraph", `${[...terms, ...entry.terms].join(", ")} — ${entry.text}`);
    } else if (BULLET_RE.test(line.text)) {
      listX = listStart(line, listX);
      start("list_item", line.text.replace(BULLET_RE, ""), { ordered: false, level: listLevel(line, listX) });
    } else if (ORDERED_RE.test(line.text) && (broke || cur?.kind === "list_item" || /[.:;]$/.test(cur?.text ?? ""))) {
      listX = listStart(line, listX);
      start("list_item", line.text.replace(ORDERED_RE, ""), { ordered: true, level: listLevel(line, listX) });
    } else if (CAPTION_RE.test(line.text) && (broke || /[.!?:]$/.test(cur?.text ?? ""))) {
      start("caption", line.text);
    } else if (inDisplay && cur) {
      cur.text += `\n${line.text}`;
    } else if (opensDisplay) {
      start("paragraph", line.text);
      displayLeft = openLeft;
    } else {
      const note = (broke || cur?.kind === "footnote") && footnote(line);
      if (note) start("footnote", note.text, { label: note.label });
      else if ((!cur || cur.kind === "heading" || cur.kind === "code" || broke) && line.runIn?.bold) {
        // A run-in heading stands apart from the sentence it opens.
        start("paragraph", line.runIn.text);
        start("paragraph", line.text.slice(line.runIn.text.length).trim());
      } else if (!cur || cur.kind === "heading" || cur.kind === "code" || broke) start("paragraph", line.text);
      else {
        cur.text = joinLine(cur.text, line.text);
      }
    }
    if ((open as Open | null)?.kind !== "list_item") listX = null;
    if ((open as Open | null) !== cur) {
      openLeft = line.x;
      if (!opensDisplay) displayLeft = null;
    } else openLeft = Math.min(openLeft, line.x);
    prev = line;
  }
  flush();

  // Furniture above the text leads the page; the rest (footers, page numbers, margin text) ends it.
  const furniture = (keep: (l: PdfLine) => boolean) =>
    all
      .filter((l) => l.role && keep(l))
      .map((l) => block("paragraph", l.text, { page }, { role: l.role as BlockRole }));
  return [...furniture((l) => l.upright && l.y >= topY), ...out, ...furniture((l) => !l.upright || l.y < topY)];
}

/** A term of a manual's table: a code block of a few short lines. */
const isTermList = (b: Open | null): b is Open =>
  b?.kind === "code" && b.text.split("\n").every((l) => l.length <= MAX_TERM_CHARS) && b.text.split("\n").length <= 3;
const MAX_TERM_CHARS = 40;

/** A description under a term: set indented past the term, opening like a sentence. */
function describes(cur: Open | null, codeX: number, line: PdfLine): { terms: string[]; text: string } | null {
  return isTermList(cur) && line.x >= codeX + line.size * 2 && /^\p{Lu}/u.test(line.text)
    ? { terms: [], text: line.text }
    : null;
}

/** A term beside its description on one line: a leading run in a fixed-pitch font, then a sentence in the body font. */
function termBeside(line: PdfLine, monospace: ReadonlySet<string>): { terms: string[]; text: string } | null {
  const term = line.lead.text.trim();
  // A comment mark ("## Remove …") opens a listing's comment line, not a term.
  if (!monospace.has(line.lead.font) || monospace.has(line.font) || term.length > MAX_TERM_CHARS) return null;
  if (!/[\p{L}\p{N}]/u.test(term)) return null;
  if (!line.text.startsWith(term)) return null;
  const text = line.text.slice(term.length).trim();
  return /^\p{Lu}\p{Ll}/u.test(text) ? { terms: [term], text } : null;
}

/** Where a list's first level starts: the first item, unless an item stands left of it or in another column. */
const listStart = (l: PdfLine, x: number | null): number =>
  x === null || l.x < x - l.size || l.x > x + l.size * 6 ? l.x : x;

/** Nesting of a list item from its indent below the first item of the list. */
const listLevel = (l: PdfLine, firstX: number): number =>
  Math.max(0, Math.min(3, Math.round((l.x - firstX) / (l.size * 1.5))));
