/**
 * Outline leaves that hold headings the outline leaves out: a leaf entry spanning far more pages
 * than the outline's leaves do (a web manual's "Attic": 78 pages of dated news items under one
 * entry) has headings its layout shows, which the tree should have below the leaf.
 */
import type { HeadingEntry } from "./heading-match.ts";
import type { PdfLine } from "./pdf-layout.ts";

/** A leaf this long, and this many times the outline's typical leaf, is searched for headings of its own. */
const MIN_LONG_LEAF_PAGES = 10;
const LONG_LEAF_FACTOR = 4;

export interface LongLeaf {
  level: number;
  /** First and last page the leaf's text runs over, 1-based. */
  first: number;
  last: number;
}

/**
 * The leaves of the outline (entries without a deeper entry after them) that span far more pages
 * than its median leaf. An entry pointing back before the entries it follows (a broken
 * destination: "Section Four" at page 1) has no span to measure, and a leaf ends where the next
 * entry pointing forward begins.
 */
export function longLeaves(entries: HeadingEntry[], pageCount: number): LongLeaf[] {
  const leaves: LongLeaf[] = [];
  let reached = 0;
  for (const [i, e] of entries.entries()) {
    if (e.page < reached) continue;
    reached = e.page;
    const next = entries[i + 1];
    if (next && next.level > e.level) continue;
    const last = entries.slice(i + 1).find((o) => o.page >= e.page)?.page ?? pageCount;
    leaves.push({ level: e.level, first: e.page, last });
  }
  const spans = leaves.map((l) => l.last - l.first + 1).sort((a, b) => a - b);
  const median = spans[Math.floor(spans.length / 2)] ?? 0;
  return leaves.filter((l) => {
    const span = l.last - l.first + 1;
    return span >= MIN_LONG_LEAF_PAGES && span >= LONG_LEAF_FACTOR * median;
  });
}

/**
 * The leaf's own lines, page by page (every other page empty, so page numbers hold): on its first
 * page those after the headings placed there, on its last those before them, and never a line the
 * outline placed.
 */
export function leafLines(pages: PdfLine[][], leaf: LongLeaf): PdfLine[][] {
  return pages.map((lines, i) => {
    const page = i + 1;
    if (page < leaf.first || page > leaf.last) return [];
    const placed = lines.flatMap((l, k) => (l.heading === undefined ? [] : [k]));
    const from = page === leaf.first && placed.length > 0 ? placed[placed.length - 1]! + 1 : 0;
    const to = page === leaf.last && page > leaf.first && placed.length > 0 ? placed[0]! : lines.length;
    return lines.slice(from, to).filter((l) => l.heading === undefined);
  });
}
