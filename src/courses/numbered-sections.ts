/**
 * A division's numbered sections as its sections. Where a chapter's subsections are numbered
 * ("3.1 Prepare", "3.2 Categorize"), headings between them that carry no number are not sections
 * of the chapter but things inside the numbered section before them: a report's outline bookmarks
 * its tables, figures and labelled paragraphs ("Primary Responsibility: …") beside its sections,
 * and a book closes a section with unnumbered "Exercises". Planning splits a chapter at its
 * numbered sections, so such entries are nested under the one before them.
 */
import { sectionNumberOf } from "./heading-numbers.ts";
import type { Paragraph } from "./sections.ts";

/** How many levels a heading's number has ("3.1" has 2), 0 when it has none. */
const numberDepth = (heading: string) => sectionNumberOf(heading)?.split(".").length ?? 0;

const SEP = "\u0000";

/**
 * The paragraphs with their heading paths rewritten below depth `top` (the book's chapters or
 * parts): under one heading, when two or more of its subsections carry numbers of one depth, each
 * unnumbered subsection after the first numbered one moves under the numbered one before it.
 * Appendix paragraphs keep their place. The list and its order are unchanged.
 */
export function nestUnderNumbered(paragraphs: Paragraph[], top: number): Paragraph[] {
  let out = paragraphs;
  const longest = paragraphs.reduce((d, p) => Math.max(d, p.headingPath.length), 0);
  for (let d = top + 1; d < longest; d++) out = nestAt(out, d);
  return out;
}

function nestAt(paragraphs: Paragraph[], d: number): Paragraph[] {
  const parentOf = (p: Paragraph) => p.headingPath.slice(0, d).join(SEP);
  // The depths of the numbers each parent's subsections at depth d carry.
  const numbers = new Map<string, Set<string>>();
  for (const p of paragraphs) {
    const depth = p.headingPath.length > d ? numberDepth(p.headingPath[d]!) : 0;
    if (depth === 0) continue;
    const seen = numbers.get(parentOf(p)) ?? new Set<string>();
    numbers.set(parentOf(p), seen.add(`${depth}${SEP}${p.headingPath[d]}`));
  }
  const numbered = new Set(
    [...numbers]
      .filter(([, seen]) => seen.size >= 2 && new Set([...seen].map((k) => k.split(SEP)[0])).size === 1)
      .map(([parent]) => parent),
  );
  if (numbered.size === 0) return paragraphs;
  // In reading order, so that a title met under two numbered sections goes with each where it stands.
  const last = new Map<string, string>();
  return paragraphs.map((p) => {
    if (p.headingPath.length <= d || !numbered.has(parentOf(p))) return p;
    const child = p.headingPath[d]!;
    if (numberDepth(child) > 0) {
      last.set(parentOf(p), child);
      return p;
    }
    const under = last.get(parentOf(p));
    if (under === undefined || p.role === "appendix") return p;
    return { ...p, headingPath: [...p.headingPath.slice(0, d), under, ...p.headingPath.slice(d)] };
  });
}
