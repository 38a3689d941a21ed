/**
 * A glossary set in two columns: each term at the left, its definition beside it at a fixed indent
 * and running on under itself, a source note ("[OMB A-130]") under the term. pdf.js gives such a
 * page as the term column's lines, then the definition's, or a term and its definition's first
 * line as one line with a wide gap; read line by line the terms became paragraphs of their own and
 * every definition lost the word it defines (a course chapter of headless definitions). Read as
 * entries, each is one paragraph, "term — definition", as an HTML definition list reads.
 *
 * Found from the page's own layout and order: at least three short term lines at one left edge,
 * each with a definition starting on its baseline at one indent, in alphabetical order; the
 * definitions run on over lines with nothing beside them, and nothing stands right of them (a
 * reference card's third column). Two columns of prose share baselines on every line and their left
 * column's lines are long; a table's row has more than two cells; a margin note is not in order.
 */
import { CELL_SEPARATOR, joinLine, type PdfLine } from "./pdf-layout.ts";

/**
 * A term: a few words, not a sentence or a clause (no stop, comma, semicolon or colon: "Name: …" is
 * a form's field, "Reduce the font." a sentence).
 */
const MAX_TERM_WORDS = 6;
const MAX_TERM_CHARS = 60;
const TERM_RE = /^[\p{L}\p{N}"“(][^.;,:=\\{}<>|$#%&]*[^.;,:=\\{}<>|$#%&\s-]$/u;
/** A definition opens like a sentence or a quotation (a price or a count opens a table's cell). */
const DEFINITION_START_RE = /^(\p{Lu}|["“(])/u;
/** A definition is prose: words in lower case (a list of names or a form's capitals is not). */
const PROSE_RE = /(^|\s)\p{Ll}{2,}\b.*\s\p{Ll}{2,}\b/u;
const MIN_ENTRIES = 3;

export interface TermColumns {
  /** Each entry's text, keyed by its first line in content order (where its paragraph stands). */
  entries: Map<PdfLine, string>;
  /** Every line an entry took: read as part of its entry, not on its own. */
  taken: Set<PdfLine>;
}

/** A term has words: a row's number ("24") is a table's, not a glossary's. */
const isTerm = (text: string): boolean =>
  text.length <= MAX_TERM_CHARS &&
  text.split(/\s+/).length <= MAX_TERM_WORDS &&
  TERM_RE.test(text) &&
  /\p{L}{2}/u.test(text);

/**
 * A line's first cell and the rest, when one wide gap splits it ("allocation | The process …"); a
 * line of more cells is a table's row.
 */
function cells(l: PdfLine): [string, string | null] | null {
  const parts = l.text.split(CELL_SEPARATOR);
  if (parts.length > 2) return null;
  return parts.length === 1 ? [l.text, null] : [parts[0]!, parts[1]!];
}

const near = (a: number, b: number, tolerance: number) => Math.abs(a - b) <= tolerance;

/**
 * The usual distance between a definition's lines: a wider gap starts a paragraph of its own. (A
 * line ending short does not say so: glossaries are set ragged-right.)
 */
function linePitch(defLines: PdfLine[]): number {
  const ys = defLines.map((l) => l.y).sort((a, b) => b - a);
  const gaps = ys
    .slice(1)
    .map((y, i) => ys[i]! - y)
    .filter((g) => g > 0 && g < defLines[0]!.size * 2)
    .sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? defLines[0]!.size * 1.2;
}

/** At most one term in five out of alphabetical order (a glossary's own order; a margin's notes have none). */
function alphabetical(terms: string[]): boolean {
  const keys = terms.map((t) => t.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, ""));
  let ordered = 0;
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]!.localeCompare(keys[i]!) < 0) ordered++;
  return ordered >= (keys.length - 1) * 0.8;
}

/** Left edges of the lines (to the nearest two points), most used first. */
function edges(lines: PdfLine[]): number[] {
  const counts = new Map<number, number>();
  for (const l of lines) counts.set(Math.round(l.x / 2), (counts.get(Math.round(l.x / 2)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([k]) => k * 2);
}

/** The edges tried as the term and definition columns: the page's five most used. */
const EDGES_TRIED = 5;

export function termColumns(lines: PdfLine[], monospace: ReadonlySet<string> = new Set()): TermColumns | null {
  if (lines.length < MIN_ENTRIES * 2) return null;
  const tried = edges(lines).slice(0, EDGES_TRIED);
  let best: TermColumns | null = null;
  for (const termX of tried)
    for (const defX of tried) {
      if (defX < termX + lines[0]!.size * 4) continue;
      const found = entriesAt(lines, termX, defX, monospace);
      if (found && found.entries.size > (best?.entries.size ?? 0)) best = found;
    }
  return best;
}

function entriesAt(lines: PdfLine[], termX: number, defX: number, monospace: ReadonlySet<string>): TermColumns | null {
  const size = lines[0]!.size;
  // Code under a definition stays code, and a heading in the definitions' column a heading. A term
  // set bold may have been taken for a heading by its type alone: the definition on its baseline
  // says what it is.
  const text = (l: PdfLine) => l.heading === undefined && !(monospace.has(l.font) && !l.mixedFonts);
  const atTerm = (l: PdfLine) => near(l.x, termX, 2);
  const atDef = (l: PdfLine) => near(l.x, defX, 2) && text(l);
  const defLines = lines.filter(atDef);
  if (defLines.length < MIN_ENTRIES) return null;
  const beside = (t: PdfLine) => defLines.find((d) => near(d.y, t.y, t.size * 0.3) && t.endX < defX - t.size * 0.5);

  /** A term line: a term alone with its definition's first line beside it, or both on one line. */
  const starts = new Map<PdfLine, { term: string; first: string | null }>();
  for (const l of lines.filter(atTerm)) {
    const split = cells(l);
    if (!split) continue;
    const [left, right] = split;
    const term = left.trim();
    if (!isTerm(term)) continue;
    if (right !== null && DEFINITION_START_RE.test(right.trim())) starts.set(l, { term, first: right.trim() });
    else if (right === null) {
      const d = beside(l);
      if (d && DEFINITION_START_RE.test(d.text)) starts.set(l, { term, first: null });
    }
  }
  if (starts.size < MIN_ENTRIES || !alphabetical([...starts].sort(([a], [b]) => b.y - a.y).map(([, t]) => t.term)))
    return null;
  // The definitions are the last column: no text starts right of them on their lines.
  if (lines.some((l) => l.x > defX + size * 4 && defLines.some((d) => near(d.y, l.y, size * 0.3)))) return null;
  // Definitions run on: a third of the indented lines stand with nothing at the terms' edge beside them.
  const termLines = lines.filter(atTerm);
  const alone = defLines.filter((d) => !termLines.some((t) => near(t.y, d.y, t.size * 0.3))).length;
  if (alone * 3 < defLines.length) return null;

  // Entries in reading order: down the page, a term before the definition on its baseline. Any
  // other line (a paragraph's indented first line, a table) ends the entry it meets.
  const top = Math.max(...[...starts.keys()].map((l) => l.y)) + size * 0.3;
  const order = new Map(lines.map((l, i) => [l, i]));
  const region = lines.filter((l) => l.y <= top).sort((a, b) => (near(a.y, b.y, size * 0.3) ? a.x - b.x : b.y - a.y));
  const entries = new Map<PdfLine, string>();
  const taken = new Set<PdfLine>();
  const pitch = linePitch(defLines);
  type Open = {
    lines: PdfLine[];
    term: string;
    lastTerm: PdfLine;
    lastDef: PdfLine | null;
    text: string;
    notes: string[];
  };
  let open: Open | null = null;
  const close = () => {
    const e = open as Open | null;
    open = null;
    if (!e || !PROSE_RE.test(e.text)) return;
    const first = e.lines.reduce((a, b) => (order.get(a)! <= order.get(b)! ? a : b));
    const notes = e.notes.length > 0 ? ` ${e.notes.join(" ")}` : "";
    entries.set(first, `${e.term} — ${e.text}${notes}`);
    for (const l of e.lines) taken.add(l);
  };
  for (const l of region) {
    const start = starts.get(l);
    const e = open as Open | null;
    if (start) {
      close();
      open = {
        lines: [l],
        term: start.term,
        lastTerm: l,
        lastDef: start.first ? l : null,
        text: start.first ?? "",
        notes: [],
      };
    } else if (e && atDef(l) && !(e.lastDef && e.lastDef.y - l.y > pitch + size * 0.2)) {
      // The definition's lines, to the end of its paragraph: a paragraph after it is text of its own.
      e.lines.push(l);
      e.lastDef = l;
      e.text = joinLine(e.text, l.text);
    } else if (
      e &&
      atTerm(l) &&
      cells(l)?.[1] === null &&
      l.text.length <= MAX_TERM_CHARS &&
      e.lastTerm.y - l.y < l.size * 1.6
    ) {
      // Right under the term: its source ("[OMB A-130]"), or the term's next line.
      e.lines.push(l);
      e.lastTerm = l;
      if (/^[[(]/.test(l.text) || e.notes.length > 0) e.notes.push(l.text);
      else e.term = `${e.term} ${l.text}`;
    } else close();
  }
  close();
  return entries.size >= MIN_ENTRIES ? { entries, taken } : null;
}
