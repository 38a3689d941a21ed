/**
 * Predicted headings against the truth (truth-headings.ts).
 *
 * A predicted heading matches a truth entry when their titles are the same heading (titles.ts:
 * case, quotes, dashes, numbering and "Chapter 1"/"CHAPTER ONE" labels aside) and, in a PDF, it is
 * on the entry's page or the next or previous one (an outline entry may point at the page break
 * before its heading). Each truth entry takes at most one heading, in document order.
 *
 * Outlines are often shallower than the printed headings, so an unmatched predicted heading counts
 * as neither right nor wrong (left out of precision) when it is deeper than the truth reaches:
 * numbered deeper than the truth's deepest numbered title ("3.2.1" where the outline stops at
 * "3.2"), or at a level deeper than every predicted heading that did match a truth entry.
 */
import type { Block } from "../../src/ingest/document.ts";
import { numberingDepth, sameTitle } from "./titles.ts";
import type { TruthHeading } from "./truth-headings.ts";

export interface HeadingScore {
  truth: number;
  /** Truth entries matched by a predicted heading. */
  found: number;
  /** Predicted headings counted for precision, and those that matched. */
  counted: number;
  correct: number;
  /** Unmatched predicted headings deeper than the truth reaches. */
  deeper: number;
}

export const EMPTY_SCORE: HeadingScore = { truth: 0, found: 0, counted: 0, correct: 0, deeper: 0 };

export function addScores(a: HeadingScore, b: HeadingScore): HeadingScore {
  return {
    truth: a.truth + b.truth,
    found: a.found + b.found,
    counted: a.counted + b.counted,
    correct: a.correct + b.correct,
    deeper: a.deeper + b.deeper,
  };
}

const near = (page: number | null | undefined, truth: number | null) =>
  truth === null || (page != null && Math.abs(page - truth) <= 1);

export function scoreHeadings(predicted: Block[], truth: TruthHeading[]): HeadingScore {
  const headings = predicted.filter((b) => b.kind === "heading");
  const matched = new Set<number>();
  for (const t of truth) {
    const i = headings.findIndex((h, j) => !matched.has(j) && near(h.page, t.page) && sameTitle(h.text, t.title));
    if (i >= 0) matched.add(i);
  }
  const deepestNumber = Math.max(0, ...truth.map((t) => numberingDepth(t.title)));
  const matchedLevels = [...matched].map((i) => headings[i]!.level ?? 1);
  const deepestLevel = matchedLevels.length > 0 ? Math.max(...matchedLevels) : Number.POSITIVE_INFINITY;
  let deeper = 0;
  headings.forEach((h, i) => {
    if (matched.has(i)) return;
    if ((deepestNumber > 0 && numberingDepth(h.text) > deepestNumber) || (h.level ?? 1) > deepestLevel) deeper++;
  });
  return {
    truth: truth.length,
    found: matched.size,
    counted: headings.length - deeper,
    correct: matched.size,
    deeper,
  };
}
