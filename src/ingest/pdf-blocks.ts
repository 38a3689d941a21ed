/**
 * One page's lines to blocks: headings (marked beforehand), captions, footnotes, list items and
 * paragraphs, in reading order; page furniture and margin text as blocks of their own roles.
 */
import { type Block, type BlockKind, type BlockRole, block } from "./document.ts";
import { BULLET_RE, CAPTION_RE } from "./pdf-headings.ts";
import { joinLine, type PdfLine, paragraphBreak, rightEdges, roundSize } from "./pdf-layout.ts";

/** "1.", "2)", "a)", "(iv)" before a list item's text. */
const ORDERED_RE = /^(\d{1,2}[.)]|[a-z][.)]|\((\d{1,2}|[a-z]|[ivx]{1,4})\))\s+(?=[^\s|])/;
const MARKER_RE = /^(\d{1,3}|[∗*†‡§¶]{1,3})$/;
const MARKED_TEXT_RE = /^(\d{1,3}|[∗*†‡§¶]{1,3})\s*(?=\p{L})/u;

interface Open {
  kind: BlockKind;
  text: string;
  extra: Partial<Block>;
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
): Block[] {
  const lines = all.filter((l) => !l.role);
  const edge = rightEdges(lines);
  const topY = Math.max(...lines.map((l) => l.y));
  const out: Block[] = [];
  let open: Open | null = null;
  let prev: PdfLine | null = null;
  let listX: number | null = null;

  const flush = () => {
    if (open?.text.trim()) out.push(block(open.kind, open.text.trim(), { page }, open.extra));
    open = null;
  };
  const start = (kind: BlockKind, text: string, extra: Partial<Block> = {}) => {
    flush();
    open = { kind, text, extra };
  };
  /** Small text with a marker and no body text below it in its column: a footnote. */
  const footnote = (l: PdfLine) => {
    if (roundSize(l.size) > body - 1) return null;
    const marker = footnoteMarker(l);
    if (!marker) return null;
    const below = lines.some((o) => o.y < l.y - 1 && roundSize(o.size) >= body - 0.5 && o.x < l.endX && o.endX > l.x);
    return below ? null : marker;
  };

  for (const line of lines) {
    const cur = open as Open | null;
    const broke = !prev || paragraphBreak(prev, line, edge);
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
      // Code keeps its lines; a gap of a blank line or two stays inside the listing.
      const continues = cur?.kind === "code" && prev && prev.y - line.y > 0 && prev.y - line.y < line.size * 3.5;
      if (continues) cur.text += `\n${line.text}`;
      else start("code", line.text);
    } else if (BULLET_RE.test(line.text)) {
      listX = listStart(line, listX);
      start("list_item", line.text.replace(BULLET_RE, ""), { ordered: false, level: listLevel(line, listX) });
    } else if (ORDERED_RE.test(line.text) && (broke || cur?.kind === "list_item" || /[.:;]$/.test(cur?.text ?? ""))) {
      listX = listStart(line, listX);
      start("list_item", line.text.replace(ORDERED_RE, ""), { ordered: true, level: listLevel(line, listX) });
    } else if (CAPTION_RE.test(line.text) && (broke || /[.!?:]$/.test(cur?.text ?? ""))) {
      start("caption", line.text);
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

/** Where a list's first level starts: the first item, unless an item stands left of it or in another column. */
const listStart = (l: PdfLine, x: number | null): number =>
  x === null || l.x < x - l.size || l.x > x + l.size * 6 ? l.x : x;

/** Nesting of a list item from its indent below the first item of the list. */
const listLevel = (l: PdfLine, firstX: number): number =>
  Math.max(0, Math.min(3, Math.round((l.x - firstX) / (l.size * 1.5))));
