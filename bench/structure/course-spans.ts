/**
 * How a course's chapters divide a book, read against the book's own truth (issue #28: no course
 * chapter spans more than twice the average one; body chapters get the course's chapters first):
 *   - span: the words of the book a chapter's planned sections cover (its outline's parts, read as
 *     the planner reads them), the longest over the average;
 *   - appendix or body: a chapter is an appendix chapter when most of those words stand on the
 *     pages of the book's appendices. An appendix is a part or chapter of the heading truth (level 1
 *     or 2) titled "Appendix …"/"Annex …", printed under such a label on its page ("APPENDIX B" over
 *     "GLOSSARY", whose outline entry omits it), or one of a run of lettered entries ("A …", "B …");
 *     it runs to the next heading of its level or above that is none.
 */
import { pdfPages } from "./pdf-pages.ts";
import { normText, normTitle } from "./titles.ts";
import type { TruthHeading } from "./truth-headings.ts";

const LABEL_RE = /^(appendix|appendices|annex|annexes)\b/;
const LETTER_RE = /^([A-Z])(?:[.:)]\s*|\s+)\p{L}/u;

/** Whether page text prints `title` under an appendix label: "Appendix B" on its line or the line before. */
function labelledOnPage(pageText: string, title: string): boolean {
  const want = normTitle(title).slice(0, 12);
  if (!want) return false;
  const lines = pageText.split("\n").map(normText).filter(Boolean);
  return lines.some((line, i) => {
    const m = /^(appendix|annex) ([a-z]|\d{1,2})(?: (.*))?$/.exec(line);
    return m !== null && (m[3] ?? lines[i + 1] ?? "").startsWith(want);
  });
}

/** A predicate on PDF pages (1-based): whether the page stands in one of the book's appendices. */
export function appendixPages(path: string, truth: TruthHeading[]): (page: number) => boolean {
  const pages = pdfPages(path);
  const heads = [
    ...new Map(
      truth.filter((t) => t.level <= 2 && t.page !== null).map((t) => [`${t.page}\u0000${t.title}`, t]),
    ).values(),
  ].sort((a, b) => a.page! - b.page!);
  const letters = heads.map((h) => LETTER_RE.exec(h.title.trim())?.[1] ?? null);
  const follows = (a: string | null, b: string | null) =>
    a !== null && b !== null && b.charCodeAt(0) === a.charCodeAt(0) + 1;
  const isAppendix = heads.map(
    (h, i) =>
      LABEL_RE.test(normText(h.title)) ||
      labelledOnPage(pages[h.page! - 1] ?? "", h.title) ||
      follows(letters[i]!, letters[i + 1] ?? null) ||
      follows(letters[i - 1] ?? null, letters[i]!),
  );
  const ranges: [number, number][] = [];
  heads.forEach((h, i) => {
    if (!isAppendix[i]) return;
    const end =
      heads.slice(i + 1).find((n, k) => n.level <= h.level && !isAppendix[i + 1 + k])?.page ?? Number.POSITIVE_INFINITY;
    ranges.push([h.page!, end]);
  });
  return (page) => ranges.some(([from, to]) => page >= from && page < to);
}

export interface ChapterSpan {
  words: number;
  appendixWords: number;
}

/** The longest chapter over the average, and how many chapters are appendices and body. */
export function spanFigures(spans: ChapterSpan[]): { longest: number; appendix: number; body: number } {
  const total = spans.reduce((a, s) => a + s.words, 0);
  const average = total / Math.max(1, spans.length);
  const appendix = spans.filter((s) => s.appendixWords * 2 > s.words).length;
  return {
    longest: average > 0 ? Math.max(...spans.map((s) => s.words)) / average : 0,
    appendix,
    body: spans.length - appendix,
  };
}
