/**
 * Places a document's own list of its headings (a PDF outline, a printed contents page) on the
 * pages: each entry's title is found among the lines of the page it names, tolerant of how the page
 * prints it (case, quotes, dashes, ligatures, accents, "Chapter 1: Tides" printed "1 TIDES" or
 * "CHAPTER ONE" above "Tides", a title wrapped over lines), and those lines become headings of the
 * entry's level. An entry whose text is not there can still give a heading of its own.
 */
import { type PdfLine, paragraphBreak, rightEdges, roundSize } from "./pdf-layout.ts";

export interface HeadingEntry {
  title: string;
  /** 1 outermost. */
  level: number;
  /** 1-based page the entry points to. */
  page: number;
  /** Where on the page the entry points (PDF units, from the bottom), when the source says. */
  top?: number;
}

export interface PlaceOptions {
  /** An entry not found on its page (nor the next) gets a heading line of its own there. */
  synthesize: boolean;
  /** Size given to a synthesized heading line: the body's. */
  body: number;
}

/** Letters and digits only, lower case, ligatures and accents taken apart: how titles are compared. */
export const fold = (s: string): string =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");

const NUMBER_WORDS =
  "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty";
const LABEL = "chapter|part|section|appendix|book|unit|lecture";
/** "Chapter 1:", "PART ONE –", "Appendix B." before a title. */
const LABELLED_RE = new RegExp(
  `^\\s*(?:${LABEL})\\s+(?:\\d+|[ivxlcdm]+|[a-z]|${NUMBER_WORDS})\\b\\s*[:.)\\-–—]?\\s*`,
  "i",
);
/**
 * "1", "2.3.", "IV.", "A", "iv." before a title (roman and letters upper case unless a stop
 * follows, so "Mix" keeps its M).
 */
const NUMBERED_RE = /^\s*(?:(?:\d+(?:\.\d+)*|[IVXLCDM]+|[A-Z])(?=[\s:.)\-–—])[.:)\-–—]?|[ivxlc]{1,6}[.)])\s+/;
/**
 * A line holding only a label and number ("CHAPTER 3", "Part Two", "7", "APPENDIX B"): the first
 * line of a heading. A letter numbers only after a label word.
 */
const LABEL_ONLY_RE = new RegExp(
  `^\\s*(?:(?:(?:${LABEL})\\s+)?(?:\\d+|[IVXLCDM]+|${NUMBER_WORDS})|(?:${LABEL})\\s+[a-z])\\s*[:.]?\\s*$`,
  "i",
);

/** A title without its label and number: what "Chapter 1: Tides", "1 TIDES" and "CHAPTER ONE Tides" share. */
const core = (title: string): string => fold(title.replace(LABELLED_RE, "").replace(NUMBERED_RE, ""));

/** The forms a title may be printed in, longest first. */
export function forms(title: string): string[] {
  const whole = fold(title);
  const bare = core(title);
  return bare && bare !== whole ? [whole, bare] : [whole];
}

/** Longer entries are paragraphs; a title ending in a stop is a sentence from this many words. */
const MAX_TITLE_WORDS = 20;
const MIN_SENTENCE_WORDS = 8;

/**
 * A paragraph opening with a run-in label, however short: "Primary Responsibility: Control
 * Assessor." (a footnote mark after its stop aside).
 */
const RUN_IN_SENTENCE_RE = /^[^:.]{2,40}:\s+\S.*[.!](\d{1,3}[a-z]?)?$/i;

/**
 * An outline entry made from a paragraph (a converter bookmarking styled paragraphs): its text cut
 * short ("..." after a sentence's words; a short title may trail off: "What ever happened to…"),
 * long, a sentence ("Quick link to summary table for RMF tasks, responsibilities, and supporting
 * roles."), or a labelled sentence. Not a heading.
 */
function isParagraph(title: string): boolean {
  const words = title.split(/\s+/).length;
  return (
    (words >= MIN_SENTENCE_WORDS && /(\.\.\.|…)$/.test(title)) ||
    words > MAX_TITLE_WORDS ||
    (words >= MIN_SENTENCE_WORDS && /[.!]$/.test(title)) ||
    RUN_IN_SENTENCE_RE.test(title)
  );
}

/** A line may carry a little more than the title: a trailing page number, a running mark. */
const SLACK_CHARS = 6;
/** Lines a printed title may wrap over. */
const MAX_SPAN = 3;

interface Match {
  index: number;
  span: number;
  exact: boolean;
}

const usable = (l: PdfLine): boolean => !l.role && l.heading === undefined && l.upright;

/** The next line of one heading: right below, closer than two lines (as blocks join heading lines). */
const wrapped = (above: PdfLine, l: PdfLine): boolean => above.y - l.y > 0 && above.y - l.y < l.size * 2;

/**
 * A title that is the lines' text and the footnote mark they end in, which the page sets small and
 * raised and the text leaves out ("3.1 PREPARE 51F": a word processor's bookmark keeps the mark).
 */
const markedTail = (l: PdfLine, title: string, text: string): boolean =>
  !!l.endsInMark && text.length > 0 && title.startsWith(text) && /^\d{1,3}[a-z]?$/.test(title.slice(text.length));

/** The lines starting at `i` that carry one of the title's forms, if they do. */
function matchAt(lines: PdfLine[], i: number, titles: string[]): Match | null {
  let raw = "";
  for (let k = i; k < lines.length && k < i + MAX_SPAN; k++) {
    const l = lines[k]!;
    if (!usable(l) || (k > i && !wrapped(lines[k - 1]!, l))) return null;
    raw += ` ${l.text}`;
    const text = fold(raw);
    const bare = core(raw);
    for (const t of titles) {
      if (text === t || bare === t || markedTail(l, t, text) || markedTail(l, t, bare))
        return { index: i, span: k - i + 1, exact: true };
      if (
        k === i &&
        t.length >= 4 &&
        text.length <= t.length + SLACK_CHARS &&
        (text.startsWith(t) || bare.startsWith(t))
      )
        return { index: i, span: 1, exact: false };
    }
    if (!titles.some((t) => t.startsWith(text) || t.startsWith(bare))) return null;
  }
  return null;
}

/** Lexicographic order of ranking keys. */
function ranksAbove(a: number[], b: number[]): boolean {
  const k = a.findIndex((v, i) => v !== b[i]);
  return k >= 0 && a[k]! > b[k]!;
}

/** The best place for a title on a page: exact before loose, at or below the destination, then larger print. */
function bestMatch(lines: PdfLine[], titles: string[], top: number | undefined, after: number): Match | null {
  let best: Match | null = null;
  let bestKey: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = matchAt(lines, i, titles);
    if (!m) continue;
    const l = lines[i]!;
    const below = top === undefined || l.y <= top + l.size ? 1 : 0;
    const key = [Number(m.exact), below, i >= after ? 1 : 0, l.size];
    if (!best || ranksAbove(key, bestKey)) {
      best = m;
      bestKey = key;
    }
  }
  return best;
}

/** The line above a matched title holding only its label ("CHAPTER 3"), set close enough to read as one heading. */
function labelAbove(lines: PdfLine[], index: number): boolean {
  const above = lines[index - 1];
  return !!above && usable(above) && LABEL_ONLY_RE.test(above.text) && wrapped(above, lines[index]!);
}

/** A heading line for an entry whose text the page does not carry, before the line at `index`. */
function synthesize(lines: PdfLine[], index: number, entry: HeadingEntry, body: number): void {
  const text = entry.title.replace(/\s+/g, " ").trim();
  const textLines = lines.filter((l) => !l.role);
  // Where the line it precedes stands (or the page's last line), so the page's geometry is unchanged.
  const next = lines.slice(index).find((l) => !l.role) ?? textLines[textLines.length - 1];
  const x = next?.x ?? 0;
  lines.splice(index, 0, {
    text,
    x,
    y: next?.y ?? 0,
    endX: x,
    size: body,
    font: "",
    mixedFonts: false,
    advance: body / 2,
    lead: { text, size: body, font: "" },
    upright: true,
    heading: entry.level,
    headingStart: true,
  });
}

/** Where a heading of an entry without text goes: below the destination if known, else after the page's last placed heading. */
function insertionIndex(lines: PdfLine[], entry: HeadingEntry, after: number): number {
  if (entry.top !== undefined) {
    const top = entry.top;
    const i = lines.findIndex((l, k) => k >= after && !l.role && l.y <= top);
    if (i >= 0) return i;
  }
  return Math.min(after, lines.length);
}

/** The most pages searched for an entry whose destination is broken. */
const MAX_SEARCH_PAGES = 30;

/**
 * Where to look for each entry: its page and the next (an anchor set just before a page break).
 * An entry pointing back before the entries it follows (a broken destination: "Section One" at
 * page 1 between chapters at pages 17 and 23) is looked for between its neighbours instead, and set
 * before the next entry when not found.
 */
function settle(entries: HeadingEntry[]): (HeadingEntry & { search: number[] })[] {
  let reached = 0;
  return entries.map((entry, i) => {
    if (entry.page >= reached) {
      reached = entry.page;
      return { ...entry, search: [entry.page, entry.page + 1] };
    }
    const next = entries.slice(i + 1).find((e) => e.page >= reached)?.page ?? reached;
    const last = Math.min(next, reached + MAX_SEARCH_PAGES);
    const search = Array.from({ length: last - reached + 1 }, (_, k) => reached + k);
    return { title: entry.title, level: entry.level, page: last, search };
  });
}

/**
 * Marks the entries' lines as headings of their levels, in entry order. Returns how many entries
 * found their text on the page they name (or the next: an anchor set just before a page break).
 */
export function placeHeadings(entries: HeadingEntry[], pages: PdfLine[][], opts: PlaceOptions): number {
  /** Per page, the line after the last heading placed there: entries on one page come in order. */
  const cursor = new Map<number, PdfLine>();
  const after = (page: number): number => {
    const lines = pages[page - 1]!;
    const last = cursor.get(page);
    return last ? lines.indexOf(last) + 1 : 0;
  };
  let found = 0;
  let previous: HeadingEntry | null = null;
  for (const entry of settle(entries)) {
    const titles = forms(entry.title);
    // Noisy outlines: an empty title, or the same title again at the same page, adds nothing.
    const repeat = previous && previous.page === entry.page && fold(previous.title) === titles[0];
    if (!titles[0] || repeat || isParagraph(entry.title) || !pages[entry.page - 1]) continue;
    previous = entry;
    let placed = false;
    for (const page of entry.search) {
      const lines = pages[page - 1];
      if (!lines) continue;
      const m = bestMatch(lines, titles, page === entry.page ? entry.top : undefined, after(page));
      if (!m) continue;
      const start = labelAbove(lines, m.index) ? m.index - 1 : m.index;
      for (let i = start; i < m.index + m.span; i++) lines[i]!.heading = entry.level;
      lines[start]!.headingStart = true;
      cursor.set(page, lines[m.index + m.span - 1]!);
      placed = true;
      break;
    }
    if (placed) found++;
    else if (opts.synthesize) {
      const lines = pages[entry.page - 1]!;
      const index = insertionIndex(lines, entry, after(entry.page));
      synthesize(lines, index, entry, opts.body);
      cursor.set(entry.page, lines[index]!);
    }
  }
  return found;
}

/** "4.1.4.1 Title": a numbered line and its number. */
const SUBNUMBER_RE = /^(\d{1,2}(?:\.\d{1,2})+)\.?\s+(?=\p{Lu})/u;
const MAX_SUBHEADING_WORDS = 16;

/**
 * Headings one level below the placed ones that a contents page leaves out: a short numbered line
 * standing alone ("4.1.4.1 Mandatory Items…") whose number extends a placed heading's ("4.1.4").
 */
export function markSubsections(pages: PdfLine[][]): void {
  const levels = new Map<string, number>();
  for (const lines of pages) {
    for (const l of lines) {
      const m = l.heading === undefined ? null : /^(\d{1,2}(?:\.\d{1,2})*)\.?\s/.exec(l.text);
      if (m) levels.set(m[1]!, l.heading!);
    }
  }
  for (const all of pages) {
    const lines = all.filter((l) => !l.role);
    const edge = rightEdges(lines);
    for (const [i, l] of lines.entries()) {
      const m = SUBNUMBER_RE.exec(l.text);
      const leaders = /(\.\s?){3,}/.test(l.text);
      if (!m || leaders || !usable(l) || l.text.split(" ").length > MAX_SUBHEADING_WORDS || /[.,;:]$/.test(l.text))
        continue;
      const parent = levels.get(m[1]!.slice(0, m[1]!.lastIndexOf(".")));
      if (parent === undefined) continue;
      const prev = lines[i - 1];
      const next = lines[i + 1];
      if ((prev && !paragraphBreak(prev, l, edge)) || (next && !paragraphBreak(l, next, edge))) continue;
      l.heading = Math.min(parent + 1, 6);
      levels.set(m[1]!, l.heading);
    }
  }
}

/** Most words a heading of the opening pages holds ("Reports on Computer Systems Technology"). */
const MAX_FRONT_HEADING_WORDS = 8;
/**
 * Fewest words a heading of the opening pages heads: a title page's lines in a heading's style (an
 * author's name over an affiliation and a degree line) head fewer.
 */
const MIN_HEADED_WORDS = 25;

/**
 * Headings of the opening pages, which a printed contents page seldom lists ("Authority",
 * "Abstract", "Keywords", "Executive Summary"): before the first heading the contents placed, a
 * short line standing alone in a style (size and font) the placed headings use, other than the
 * body's, over text of its own. The document's own heading style says they are headings; as front
 * sections they stand at the top of the tree.
 */
export function markFrontHeadings(pages: PdfLine[][], body: { size: number; font: string }): void {
  const first = pages.findIndex((lines) => lines.some((l) => l.heading !== undefined));
  if (first <= 0) return;
  const style = (l: PdfLine) => `${roundSize(l.size)}|${l.font}`;
  const styles = new Set(
    pages.slice(first).flatMap((lines) => lines.filter((l) => l.heading !== undefined && !l.role).map(style)),
  );
  styles.delete(`${roundSize(body.size)}|${body.font}`);
  const inStyle = (l: PdfLine) => styles.has(style(l)) && usable(l);
  for (const all of pages.slice(0, first)) {
    const lines = all.filter((l) => !l.role);
    const edge = rightEdges(lines);
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      if (!inStyle(l) || !/\p{L}{2}/u.test(l.text)) continue;
      // A heading wrapped over lines: the next lines in its style, right below it.
      let last = i;
      while (
        last - i < MAX_SPAN - 1 &&
        lines[last + 1] &&
        inStyle(lines[last + 1]!) &&
        wrapped(lines[last]!, lines[last + 1]!)
      )
        last++;
      const text = lines
        .slice(i, last + 1)
        .map((o) => o.text)
        .join(" ");
      if (/[.,;:]$/.test(text) || text.split(" ").length > MAX_FRONT_HEADING_WORDS) continue;
      const prev = lines[i - 1];
      const next = lines[last + 1];
      if ((prev && !paragraphBreak(prev, l, edge)) || (next && !paragraphBreak(lines[last]!, next, edge))) continue;
      const end = lines.findIndex((o, k) => k > last && styles.has(style(o)));
      const headed = lines
        .slice(last + 1, end < 0 ? lines.length : end)
        .reduce((n, o) => n + o.text.split(" ").length, 0);
      if (headed < MIN_HEADED_WORDS) continue;
      for (let k = i; k <= last; k++) lines[k]!.heading = 1;
      l.headingStart = true;
      i = last;
    }
  }
}
