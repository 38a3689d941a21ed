/**
 * A printed table of contents, for PDFs without an outline: its pages are found by their shape
 * (most lines end in a page number, often after dot leaders), its entries read with levels from
 * their indent and print size (or numbering depth), and the printed page numbers turned into PDF
 * pages by the offset the page-number furniture shows, or else the offset at which most entries'
 * titles are found in the body.
 */
import { namesSomething } from "./document.ts";
import { forms, type HeadingEntry } from "./heading-match.ts";
import { type PdfLine, roundSize } from "./pdf-layout.ts";

/** "Title . . . . 12", "Title | 12", "Title 12", "Preface ix": a title and a printed page number. */
const ENTRY_RE =
  /^(.*?\p{L}.*?)(?:\s*\.){2,}\s*(?:\|\s*)?(\d{1,4}|[ivxlc]{1,7})$|^(.*?\p{L}.*?)\s*(?:\|\s*|\s)(\d{1,4}|[ivxlc]{1,7})$/u;
/** An entry of a list of figures or tables: a caption, not a heading. */
const CAPTION_ENTRY_RE = /^(?:fig(?:ure)?\.?|table|listing|exhibit)\s+[A-Z]?[-.]?\d/i;
/** Contents sit in the first part of a document. */
const CONTENTS_SHARE = 0.3;
/** A contents page has at least this many entries, and entries make most of its lines. */
const MIN_PAGE_ENTRIES = 5;
const MIN_ENTRY_SHARE = 0.5;

interface TocLine {
  title: string;
  printed: string;
  /** Indent from the left edge of the contents pages of the same side (odd or even). */
  x: number;
  y: number;
  size: number;
  /** The contents page it stands on, 1-based. */
  page: number;
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/** A roman numeral's value, or null for letters that are not one. */
function romanValue(s: string): number | null {
  const t = s.toLowerCase();
  if (!/^(?=[ivxlc])c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$/.test(t)) return null;
  let n = 0;
  for (let i = 0; i < t.length; i++) {
    const v = ROMAN[t[i]!]!;
    n += v < (ROMAN[t[i + 1]!] ?? 0) ? -v : v;
  }
  return n;
}

/** A printed page label as a number and its numbering (front matter counts in roman). */
function pageLabel(s: string): { n: number; roman: boolean } | null {
  if (/^\d{1,4}$/.test(s)) return { n: Number(s), roman: false };
  const r = romanValue(s);
  return r === null ? null : { n: r, roman: true };
}

function entryOf(l: PdfLine): TocLine | null {
  if (l.role || !l.upright) return null;
  const m = ENTRY_RE.exec(l.text);
  if (!m) return null;
  const title = (m[1] ?? m[3] ?? "").replace(/\s*\|\s*/g, " ").trim();
  const printed = m[2] ?? m[4] ?? "";
  if (!pageLabel(printed) || !namesSomething(title)) return null;
  return { title, printed, x: l.x, y: l.y, size: roundSize(l.size), page: 0 };
}

/** The entries of one page, a title wrapped over lines joined to the line carrying its page number. */
function pageEntries(lines: PdfLine[]): { entries: TocLine[]; count: number; share: number } {
  const body = lines.filter((l) => !l.role && l.upright);
  const entries: TocLine[] = [];
  let pending: PdfLine | null = null;
  for (const l of body) {
    const e = entryOf(l);
    if (!e) {
      pending =
        pending && pending.y - l.y > 0 && pending.y - l.y < l.size * 2
          ? { ...l, text: `${pending.text} ${l.text}`, x: pending.x }
          : l;
      continue;
    }
    if (pending && pending.y - l.y > 0 && pending.y - l.y < l.size * 2 && l.x >= pending.x - l.size) {
      e.title = `${pending.text} ${e.title}`;
      e.x = pending.x;
    }
    pending = null;
    entries.push(e);
  }
  // Lists of figures and tables are contents pages too, but list captions, not headings.
  return {
    entries: entries.filter((e) => !CAPTION_ENTRY_RE.test(e.title)),
    count: entries.length,
    share: body.length ? entries.length / body.length : 0,
  };
}

interface Contents {
  /** First and last contents page, 1-based. */
  first: number;
  last: number;
  entries: TocLine[];
}

/** Where an entry's arabic page number falls below the one before: a second listing begins (a brief contents, then the full one). */
const restarts = (prev: TocLine | undefined, e: TocLine) => {
  const [a, b] = [prev && pageLabel(prev.printed), pageLabel(e.printed)];
  return !!a && !!b && !a.roman && !b.roman && b.n < a.n;
};

/**
 * The longest run of consecutive contents pages in the document's first part, with their entries.
 * A listing that starts again from its first page numbers (a brief contents before the full one) is
 * a run of its own.
 */
function contentsPages(pages: PdfLine[][]): Contents | null {
  const limit = Math.max(3, Math.ceil(pages.length * CONTENTS_SHARE));
  let best: Contents | null = null;
  let run: Contents | null = null;
  for (let p = 0; p < Math.min(limit, pages.length); p++) {
    const { entries, count, share } = pageEntries(pages[p]!);
    // The last page of a listing may hold its last few entries only (an appendix and its sections).
    const continues = run !== null && run.last === p && count > 0;
    if ((count < MIN_PAGE_ENTRIES && !continues) || share < MIN_ENTRY_SHARE) {
      run = null;
      continue;
    }
    for (const e of entries) {
      if (!run || restarts(run.entries[run.entries.length - 1], e)) run = { first: p + 1, last: p + 1, entries: [] };
      run.last = p + 1;
      run.entries.push({ ...e, page: p + 1 });
      if (!best || run.entries.length > best.entries.length) best = run;
    }
  }
  return best && { ...best, entries: alignSides(best.entries) };
}

/**
 * Indents measured from the leftmost entry of the pages on the same side: a book's odd and even
 * pages set their margins apart, so the same level stands at two positions.
 */
function alignSides(entries: TocLine[]): TocLine[] {
  const left = [0, 1].map((side) => Math.min(...entries.filter((e) => e.page % 2 === side).map((e) => e.x)));
  return entries.map((e) => ({ ...e, x: e.x - left[e.page % 2]! }));
}

/**
 * Levels from the entries' styles: further left, then larger, ranks higher. When every entry
 * shares one style, numbering depth ("2.3.1") gives the level.
 */
function levels(entries: TocLine[]): number[] {
  const xs = [...new Set(entries.map((e) => e.x))].sort((a, b) => a - b);
  // Indents less than a character apart are one indent (right-aligned numbers "9" and "10" start apart).
  const size = mode(entries.map((e) => e.size)) ?? 10;
  const indent = (x: number) =>
    xs.filter((v, i) => i === 0 || v - xs[i - 1]! > 0.75 * size).filter((v) => v <= x + 0.5).length;
  const style = (e: TocLine) => `${indent(e.x)}|${e.size}`;
  const styles = [...new Set(entries.map(style))].sort((a, b) => {
    const [ia, sa] = a.split("|").map(Number);
    const [ib, sb] = b.split("|").map(Number);
    return ia! - ib! || sb! - sa!;
  });
  if (styles.length > 1) return entries.map((e) => Math.min(styles.indexOf(style(e)) + 1, 6));
  return entries.map((e) => {
    const m = /^(\d+(?:\.\d+)*)\s/.exec(e.title);
    return Math.min(m ? m[1]!.split(".").length : 1, 6);
  });
}

/** The most frequent value, if any. */
function mode(values: number[]): number | null {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: number | null = null;
  for (const [v, n] of counts) if (best === null || n > counts.get(best)!) best = v;
  return best;
}

/** PDF page minus printed number, per numbering, as the page-number furniture shows it. */
function furnitureOffset(pages: PdfLine[][], roman: boolean): number | null {
  const offsets: number[] = [];
  for (const [i, lines] of pages.entries()) {
    for (const l of lines) {
      if (l.role !== "page_number") continue;
      const label = pageLabel(l.text.trim().toLowerCase());
      if (label && label.roman === roman) offsets.push(i + 1 - label.n);
    }
  }
  return mode(offsets);
}

/** For each page, the forms of its lines' texts (page furniture left out). */
const lineForms = (pages: PdfLine[][]) =>
  pages.map((lines) => new Set(lines.filter((l) => !l.role).flatMap((l) => forms(l.text))));

/** The offset at which most entries' titles stand as a line of their own in the body. */
function locatedOffset(lineTexts: Set<string>[], entries: TocLine[], after: number, roman: boolean): number | null {
  const offsets: number[] = [];
  for (const e of entries) {
    const label = pageLabel(e.printed);
    if (!label || label.roman !== roman) continue;
    const titles = forms(e.title);
    for (let p = roman ? after : Math.max(after, label.n); p <= lineTexts.length; p++) {
      if (titles.some((t) => lineTexts[p - 1]!.has(t))) {
        offsets.push(p - label.n);
        break;
      }
    }
  }
  return mode(offsets);
}

/** How many entries of a numbering have their title as a line on their page, or the next, at an offset. */
function foundAt(lineTexts: Set<string>[], entries: TocLine[], roman: boolean, offset: number): number {
  return entries.filter((e) => {
    const label = pageLabel(e.printed);
    if (!label || label.roman !== roman) return false;
    const p = label.n + offset;
    return forms(e.title).some((t) => lineTexts[p - 1]?.has(t) || lineTexts[p]?.has(t));
  }).length;
}

/** The contents' own title ("Table of Contents"): the largest line above its first entry. */
function contentsTitle(lines: PdfLine[], first: TocLine): string | null {
  const above = lines.filter((l) => !l.role && l.upright && l.y > first.y && /\p{L}{2}/u.test(l.text));
  const largest = above.sort((a, b) => b.size - a.size)[0];
  return largest && roundSize(largest.size) > first.size ? largest.text : null;
}

/** Of a contents page without page numbers, this share of its lines must stand again later, in order. */
const MIN_LINKED_SHARE = 0.6;

/**
 * A contents page without page numbers (an ebook's, whose entries are links): most of its lines
 * stand again, in the same order, as lines of later pages, which is where they point.
 */
function linkedContents(pages: PdfLine[][]): HeadingEntry[] {
  /** For each form of a line's text, the pages where a line of that text stands. */
  const where = new Map<string, number[]>();
  for (const [i, lines] of pages.entries()) {
    for (const l of lines) {
      if (l.role) continue;
      for (const f of forms(l.text)) {
        const list = where.get(f) ?? [];
        if (list[list.length - 1] !== i + 1) list.push(i + 1);
        where.set(f, list);
      }
    }
  }
  const limit = Math.min(pages.length, Math.ceil(pages.length * CONTENTS_SHARE));
  for (let p = 1; p <= limit; p++) {
    const lines = pages[p - 1]!.filter((l) => !l.role && l.upright && /\p{L}{2}/u.test(l.text));
    if (lines.length < MIN_PAGE_ENTRIES) continue;
    let at = p + 1;
    const found: { line: PdfLine; page: number }[] = [];
    for (const line of lines) {
      const pagesOf = forms(line.text).flatMap((f) => where.get(f) ?? []);
      const page = Math.min(...pagesOf.filter((q) => q >= at));
      if (!Number.isFinite(page)) continue;
      found.push({ line, page });
      at = page;
    }
    if (found.length < MIN_PAGE_ENTRIES || found.length < lines.length * MIN_LINKED_SHARE) continue;
    const entries = found.map(({ line }) => ({
      title: line.text,
      printed: "",
      x: line.x,
      y: line.y,
      size: roundSize(line.size),
      page: p,
    }));
    const level = levels(entries);
    return found.map(({ line, page }, i) => ({ title: line.text, level: level[i]!, page }));
  }
  return [];
}

/**
 * Entries of the printed table of contents, placed at PDF pages; empty when the document has none.
 */
export function readContents(pages: PdfLine[][]): HeadingEntry[] {
  const contents = contentsPages(pages);
  if (!contents) return linkedContents(pages);
  const lineTexts = lineForms(pages);
  // The page-number furniture is read from the pages, yet a printer's sheet count or a stray number
  // may pass for it: of it and the offset the titles give, the one placing more entries holds.
  const offset = (roman: boolean) => {
    const candidates = [
      furnitureOffset(pages, roman),
      locatedOffset(lineTexts, contents.entries, contents.last + 1, roman),
    ].filter((o) => o !== null);
    const found = candidates.map((o) => foundAt(lineTexts, contents.entries, roman, o));
    return candidates[found.indexOf(Math.max(...found))] ?? null;
  };
  const arabic = offset(false);
  const roman = offset(true);
  const level = levels(contents.entries);
  const out: HeadingEntry[] = [];
  for (const [i, e] of contents.entries.entries()) {
    const label = pageLabel(e.printed)!;
    const offset = label.roman ? roman : arabic;
    if (offset === null) continue;
    const page = label.n + offset;
    // An entry pointing into the contents themselves (or outside the file) is not a heading there.
    if (page < 1 || page > pages.length || (page >= contents.first && page <= contents.last)) continue;
    out.push({ title: e.title, level: level[i]!, page });
  }
  // The contents' own title goes in page order: entries of pages before it (a preface at page v)
  // would otherwise point back and be looked for on the contents page, where their entry stands.
  const heading = contentsTitle(pages[contents.first - 1]!, contents.entries[0]!);
  if (heading) {
    const at = out.findIndex((e) => e.page > contents.first);
    out.splice(at < 0 ? out.length : at, 0, { title: heading, level: 1, page: contents.first });
  }
  return out;
}
