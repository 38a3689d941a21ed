/**
 * Chapters from a source's sections: contiguous groups in reading order, balanced by length. With
 * fewer sections than chapters the largest are split first, at a subsection boundary when they
 * have one, else between paragraphs; a short source gives short chapters, never repeated ones.
 */
import { splitSentences } from "../ingest/sentences.ts";
import { type Paragraph, type Section, wordsOf } from "./sections.ts";

const NUMBERING_RE = /^\s*((\d+|[A-Z]|[IVXLC]+)(\.\d+)*\.?|appendix\s+[A-Z]\.?)\s+(?=\p{L})/iu;

// The full stop a run-in heading closes with ("1. Greetings!.", "12.1. Elements.", as TeX's run-in
// styles print them), not an abbreviation's ("U.S.") nor an ellipsis.
const CLOSING_STOP_RE = /(?<!\.\p{L}{1,3}|\.)\.$/u;

/** A heading as a title: its numbering ("3.2", "A.1", "IV.") and a run-in heading's closing full stop dropped. */
export const cleanTitle = (heading: string): string => {
  const title = heading.replace(NUMBERING_RE, "").trim() || heading.trim();
  return title.replace(CLOSING_STOP_RE, "").trim() || title;
};

// A piece shorter than this, or of one sentence, is no chapter: a title slide's one line, a lone
// caption, a section that only announces the next.
export const MIN_PART_WORDS = 30;
const MIN_PART_SENTENCES = 2;

/** Whether paragraphs [from, to) are too thin to teach on their own (a code listing counts as a sentence). */
export function tooThin(
  paragraphs: Paragraph[],
  from: number,
  to: number,
  words = wordsOf(paragraphs, from, to),
): boolean {
  if (words < MIN_PART_WORDS) return true;
  let sentences = 0;
  for (let i = from; i < to && sentences < MIN_PART_SENTENCES; i++) {
    const text = paragraphs[i]!.text;
    sentences += text.startsWith("```") ? 1 : splitSentences(text).length;
  }
  return sentences < MIN_PART_SENTENCES;
}

// A line standing as a paragraph of its own, this short and ending in no punctuation, over a
// longer paragraph, heads what follows: a heading the document's outline leaves out ("Changelogs",
// "Inactive Google Summer of Code project suggestions" inside an outline leaf of 78 pages).
const MAX_HEADING_LINE_WORDS = 10;

function headingLine(paragraphs: Paragraph[], i: number): string | null {
  const t = paragraphs[i]!.text;
  const next = paragraphs[i + 1]?.text ?? "";
  const words = t.split(/\s+/).length;
  const heads =
    !t.includes("\n") &&
    words <= MAX_HEADING_LINE_WORDS &&
    /^[\p{Lu}\p{N}]/u.test(t) &&
    !/[.,;:?)\]]$/.test(t) &&
    next.split(/\s+/).length > 2 * words;
  return heads ? t : null;
}

// A heading line is cut at only when it lies in the section's middle half; else the paragraph
// boundary nearest the middle keeps the pieces even.
const HEADING_LINE_REACH = 0.25;

/**
 * Where to cut a section in two: the subsection start nearest its middle (titled by the subsection),
 * else the heading line nearest it within its middle half (titled by the line), else the paragraph
 * boundary nearest it (title null: the piece goes on with the section); none when every cut leaves
 * a piece too short to be a chapter.
 */
function splitPoint(s: Section, paragraphs: Paragraph[]): { at: number; title: string | null } | null {
  const half = s.words / 2;
  const sub = (i: number) => paragraphs[i]!.headingPath[s.depth + 1] ?? null;
  let subsection: { at: number; title: string; distance: number } | null = null;
  let line: { at: number; title: string; distance: number } | null = null;
  let boundary: { at: number; distance: number } | null = null;
  // Words before paragraph i, kept as a running sum rather than recounted for every boundary.
  let before = wordsOf(paragraphs, s.from, s.from + 1);
  for (let i = s.from + 1; i < s.to; before += wordsOf(paragraphs, i, i + 1), i++) {
    if (before < MIN_PART_WORDS || s.words - before < MIN_PART_WORDS) continue;
    if (tooThin(paragraphs, s.from, i, before) || tooThin(paragraphs, i, s.to, s.words - before)) continue;
    const distance = Math.abs(before - half);
    if (!boundary || distance < boundary.distance) boundary = { at: i, distance };
    const title = sub(i);
    if (title !== null && title !== sub(i - 1) && (!subsection || distance < subsection.distance))
      subsection = { at: i, title, distance };
    const heading = distance <= s.words * HEADING_LINE_REACH ? headingLine(paragraphs, i) : null;
    if (heading !== null && (!line || distance < line.distance)) line = { at: i, title: heading, distance };
  }
  if (subsection) return { at: subsection.at, title: subsection.title };
  if (line) return { at: line.at, title: line.title };
  return boundary && { at: boundary.at, title: null };
}

/**
 * Sections split, largest first, until there are `wanted` of them or none can be split. The pieces
 * of a section cut between paragraphs are titled as its parts, "Introduction (part 2 of 3)".
 */
export function splitToCount(sections: Section[], paragraphs: Paragraph[], wanted: number): Section[] {
  const out = [...sections];
  // The title each piece cut between paragraphs continues.
  const partOf = new Map<Section, string>();
  while (out.length < wanted) {
    const order = out.map((s, i) => ({ s, i })).sort((a, b) => b.s.words - a.s.words);
    const pick = order.find(({ s }) => splitPoint(s, paragraphs) !== null);
    if (!pick) break;
    const { s, i } = pick;
    const cut = splitPoint(s, paragraphs)!;
    const base = partOf.get(s) ?? s.title;
    const first: Section = { ...s, to: cut.at, words: wordsOf(paragraphs, s.from, cut.at) };
    const second: Section = { ...s, from: cut.at, title: cut.title ?? base, words: wordsOf(paragraphs, cut.at, s.to) };
    if (cut.title === null || partOf.has(s)) partOf.set(first, base);
    if (cut.title === null) partOf.set(second, base);
    out.splice(i, 1, first, second);
  }
  return numberParts(out, partOf);
}

/** Each run of pieces continuing one section, titled "Title (part k of n)". */
function numberParts(sections: Section[], partOf: Map<Section, string>): Section[] {
  const out = [...sections];
  for (let i = 0; i < out.length; ) {
    const base = partOf.get(out[i]!);
    let end = i + 1;
    while (base !== undefined && end < out.length && partOf.get(out[end]!) === base) end++;
    if (base !== undefined && end - i > 1) {
      for (let k = i; k < end; k++) out[k] = { ...out[k]!, title: `${base} (part ${k - i + 1} of ${end - i})` };
    }
    i = end;
  }
  return out;
}

/**
 * Contiguous groups of the sections, exactly `count` of them (fewer only when there are fewer
 * sections), with the longest group as short as it can be (linear partition by dynamic programming).
 */
export function partition(sections: Section[], count: number): Section[][] {
  const n = sections.length;
  const k = Math.min(count, n);
  if (k <= 0) return [];
  const prefix = [0];
  for (const s of sections) prefix.push(prefix.at(-1)! + Math.max(1, s.words));
  const cost = (i: number, j: number) => prefix[j]! - prefix[i]!;
  // best[g][j]: the least possible largest group when the first j sections form g groups.
  const best = Array.from({ length: k + 1 }, () => new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY));
  const cut = Array.from({ length: k + 1 }, () => new Array<number>(n + 1).fill(0));
  best[0]![0] = 0;
  for (let g = 1; g <= k; g++) {
    for (let j = g; j <= n; j++) {
      for (let i = g - 1; i < j; i++) {
        const v = Math.max(best[g - 1]![i]!, cost(i, j));
        if (v < best[g]![j]!) {
          best[g]![j] = v;
          cut[g]![j] = i;
        }
      }
    }
  }
  const groups: Section[][] = [];
  let j = n;
  for (let g = k; g >= 1; g--) {
    const i = cut[g]![j]!;
    groups.unshift(sections.slice(i, j));
    j = i;
  }
  return groups;
}

/** A title covering a group's sections: the one heading, or the headings joined while short enough. */
export function groupTitle(titles: string[]): string {
  const clean = [...new Set(titles.map(cleanTitle))];
  if (clean.length === 1) return clean[0]!;
  const joined = `${clean.slice(0, -1).join(", ")} and ${clean.at(-1)}`;
  return joined.length <= 90 ? joined : `${clean[0]} through ${clean.at(-1)}`;
}
