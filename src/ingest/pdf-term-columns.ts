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
 * Entries as real glossaries set them (NIST SP 800-37r2's 190): a term over several lines, its
 * definition beside its first or its second line; a term run into its definition with no wide gap;
 * a second definition under a second source's note; a definition run on over a page break, joined
 * to its term by the page reader (pdf-blocks).
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
/**
 * A definition is prose: words in lower case (a list of names or a form's capitals is not), or a
 * cross-reference to another entry ("See Senior Agency Information Security Officer.").
 */
const PROSE_RE = /(^|\s)\p{Ll}{2,}\b.*\s\p{Ll}{2,}\b|^See (also )?\p{Lu}/u;
const MIN_ENTRIES = 3;
/** A source note under a term: "[OMB A-130]", "(supply chain)". */
const NOTE_RE = /^[[(]/;

export interface GlossaryEntry {
  term: string;
  definition: string;
  /** Its source notes ("[OMB A-130]"), read after the definition. */
  notes: string[];
}

export interface TermColumns {
  /** Each entry, keyed by its first line in content order (where its paragraph stands). */
  entries: Map<PdfLine, GlossaryEntry>;
  /**
   * The definition's lines opening the page with no term beside them: the last entry of the page
   * before, run on over the page break (also in `taken`).
   */
  continued: PdfLine[];
  /** Every line an entry took: read as part of its entry, not on its own. */
  taken: Set<PdfLine>;
}

/** An entry as one paragraph, as an HTML definition list reads: "term — definition [source]". */
export const entryText = (e: GlossaryEntry): string => [`${e.term} — ${e.definition}`, ...e.notes].join(" ");

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
 * A term run into its definition with no wide gap between them ("common control provider An
 * organizational official …"): split before the word starting nearest the definitions' edge (placed
 * by the line's mean character width), when a term stands before it and a definition opens there.
 */
function splitAtEdge(l: PdfLine, defX: number): [string, string] | null {
  let best: [string, string] | null = null;
  let bestDistance = l.size * 3;
  for (const m of l.text.matchAll(/\s(?=\S)/g)) {
    const i = m.index + 1;
    const distance = Math.abs(l.x + i * l.advance - defX);
    const [left, right] = [l.text.slice(0, i).trim(), l.text.slice(i)];
    if (distance < bestDistance && isTerm(left) && DEFINITION_START_RE.test(right)) {
      best = [left, right];
      bestDistance = distance;
    }
  }
  return best;
}

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
  // The lower quartile: a paragraph's wider gaps among few run-on lines must not set the pitch.
  return gaps[Math.floor(gaps.length / 4)] ?? defLines[0]!.size * 1.2;
}

/**
 * The usual distance from a definition's last line down to the next term: the gap that ends an
 * entry (0 when no entry follows another).
 */
function entrySpacing(defLines: PdfLine[], starts: PdfLine[]): number {
  const gaps = starts
    .map((s) => Math.min(...defLines.filter((d) => d.y > s.y + s.size * 0.3).map((d) => d.y - s.y)))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 0;
}

/**
 * At most one term in five out of alphabetical order (a glossary's own order; a margin's notes have
 * none). A term's first line may repeat the one before ("cybersecurity framework" | "category"):
 * its next line sets it in order.
 */
function alphabetical(terms: string[]): boolean {
  const keys = terms.map((t) => t.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, ""));
  let ordered = 0;
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]!.localeCompare(keys[i]!) <= 0) ordered++;
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
  const pitch = linePitch(defLines);
  /** A definition line after a gap wider than the definitions' line pitch starts a paragraph. */
  const opens = (d: PdfLine) => !defLines.some((o) => o.y > d.y && o.y - d.y <= pitch + size * 0.2);

  /**
   * A term line: a term alone with its definition's first line beside it, or both on one line. A
   * source note with a definition beside it gives the term above a further definition, from that
   * source (a term defined by two standards); its term is the one above (null here).
   */
  const starts = new Map<PdfLine, { term: string | null; first: string | null; note?: string }>();
  for (const l of lines.filter(atTerm)) {
    const cellSplit = cells(l);
    if (!cellSplit) continue;
    const split = cellSplit[1] === null && l.endX > defX + size ? (splitAtEdge(l, defX) ?? cellSplit) : cellSplit;
    const [left, right] = split;
    const term = left.trim();
    if (NOTE_RE.test(term)) {
      const first = right?.trim() ?? null;
      const d = first === null ? beside(l) : l;
      if (d && opens(d) && DEFINITION_START_RE.test(first ?? d.text)) starts.set(l, { term: null, first, note: term });
      continue;
    }
    if (!isTerm(term)) continue;
    if (right !== null && DEFINITION_START_RE.test(right.trim())) starts.set(l, { term, first: right.trim() });
    else if (right === null) {
      // A term's next line may stand beside its definition's next line: no start.
      const d = beside(l);
      if (d && opens(d) && DEFINITION_START_RE.test(d.text)) starts.set(l, { term, first: null });
    }
  }
  // A term set over two lines with its definition beside the second: the line above is its start.
  const headed = new Map<PdfLine, PdfLine>();
  for (const [l, start] of starts) {
    const above = lines.find(
      (t) =>
        atTerm(t) &&
        t.y > l.y &&
        t.y - l.y < l.size * 1.4 &&
        !starts.has(t) &&
        !beside(t) &&
        cells(t)?.[1] === null &&
        !NOTE_RE.test(t.text) &&
        isTerm(t.text),
    );
    if (above && start.term !== null) {
      starts.set(l, { ...start, term: `${above.text} ${start.term}` });
      headed.set(l, above);
    }
  }
  const terms = [...starts].sort(([a], [b]) => b.y - a.y).flatMap(([, t]) => (t.term === null ? [] : [t.term]));
  if (terms.length < MIN_ENTRIES || !alphabetical(terms)) return null;
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
  const entries = new Map<PdfLine, GlossaryEntry>();
  const taken = new Set<PdfLine>();
  const runOn = Math.max(pitch + size * 0.2, entrySpacing(defLines, [...starts.keys()]) - size * 0.2);
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
    entries.set(first, { term: e.term, definition: e.text, notes: e.notes });
    for (const l of e.lines) taken.add(l);
  };
  /** The term of the entry last opened: a further definition's. */
  let termAbove: string | null = null;
  for (const l of region) {
    const start = starts.get(l);
    const e = open as Open | null;
    if (start && (start.term ?? termAbove) !== null) {
      close();
      const term: string = start.term ?? termAbove!;
      termAbove = term;
      const head = headed.get(l);
      open = {
        lines: head ? [head, l] : [l],
        term,
        lastTerm: l,
        lastDef: start.first ? l : null,
        text: start.first ?? "",
        notes: start.note ? [start.note] : [],
      };
    } else if (e && atDef(l) && !(e.lastDef && e.lastDef.y - l.y >= runOn)) {
      // The definition's lines, with its further paragraphs ("See …", a note): a gap as wide as
      // the one between entries ends it, and a paragraph after that is text of its own.
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
      if (NOTE_RE.test(l.text) || e.notes.length > 0) e.notes.push(l.text);
      else {
        e.term = `${e.term} ${l.text}`;
        termAbove = e.term;
      }
    } else close();
  }
  close();
  if (entries.size < MIN_ENTRIES) return null;
  const continued = runOnFromPageBefore(lines, defLines, top, runOn, size);
  for (const l of continued) taken.add(l);
  return { entries, continued, taken };
}

/**
 * The definition lines above the page's first term, when they open the page (nothing with a letter
 * above them) and follow each other at the definitions' pitch: the end of an entry the page before
 * began.
 */
function runOnFromPageBefore(
  lines: PdfLine[],
  defLines: PdfLine[],
  top: number,
  runOn: number,
  size: number,
): PdfLine[] {
  const above = defLines.filter((d) => d.y > top).sort((a, b) => b.y - a.y);
  if (above.length === 0) return [];
  const highest = above[0]!.y;
  if (lines.some((l) => l.y > highest + size * 0.3 && /\p{L}/u.test(l.text))) return [];
  if (lines.some((l) => l.y > top && !above.includes(l) && /\p{L}/u.test(l.text))) return [];
  const spaced = above.every((d, i) => i === 0 || above[i - 1]!.y - d.y < runOn);
  return spaced ? above : [];
}
