/**
 * A source's chapters planned by its own heading tree, as a reader of the book would divide it:
 * - the units are the sections of the shallowest level that divides the text into at least as many
 *   substantial sections as chapters are asked (a book's parts, else its chapters, else their
 *   sections), with no unit over twice an average chapter while it has sections to split into;
 * - fewer chapters than units: consecutive units are grouped, preferring groups that are one whole
 *   part (titled by it) or lie within one part, and keeping every group under twice the average;
 * - more chapters than units: the largest are split (chapter-groups.ts), at a subsection if they have one.
 * Every unit is in exactly one chapter, in document order.
 */
import { cleanTitle, groupTitle, MIN_PART_WORDS, splitToCount } from "./chapter-groups.ts";
import { type Paragraph, type Section, topDepth, topSections, wordsOf } from "./sections.ts";

/** A section with the headings that make it one: its own last, outermost first. */
export interface BookSection extends Section {
  path: string[];
}

// A section under a tenth of an average chapter does not count as one of the book's divisions
// (a preface before three parts); it still joins the chapter beside it.
const SUBSTANTIAL_SHARE = 0.1;
// No chapter over this many times the average one, unless a single section without subsections is.
const MAX_OVER_AVERAGE = 2;

const SEP = "\u0000";
const keyOf = (path: string[]) => path.join(SEP);
const isPrefix = (short: string[], long: string[]) =>
  short.length < long.length && short.every((h, i) => long[i] === h);

/**
 * The sections at heading depth `depth` within paragraphs [from, to): runs sharing their headings
 * down to that depth. Text before a section's first subsection at that depth (a part's opening
 * words, an untitled opening, the abstract) opens that subsection.
 */
function sectionsAt(paragraphs: Paragraph[], from: number, to: number, depth: number): BookSection[] {
  const out: BookSection[] = [];
  let current: { path: string[]; from: number } | null = null;
  const close = (end: number) => {
    if (!current) return;
    const { path } = current;
    out.push({
      documentId: paragraphs[current.from]!.documentId,
      title: path.at(-1) ?? paragraphs[current.from]!.headingPath.at(-1) ?? "Introduction",
      path,
      from: current.from,
      to: end,
      depth: Math.max(0, path.length - 1),
      words: wordsOf(paragraphs, current.from, end),
    });
  };
  for (let i = from; i < to; i++) {
    const p = paragraphs[i]!;
    const path = p.role === "abstract" ? [] : p.headingPath.slice(0, depth + 1);
    if (!current) current = { path, from: i };
    else if (isPrefix(current.path, path)) current.path = path;
    else if (keyOf(path) !== keyOf(current.path)) {
      close(i);
      current = { path, from: i };
    }
  }
  close(to);
  return out;
}

const deepest = (paragraphs: Paragraph[]) => paragraphs.reduce((d, p) => Math.max(d, p.headingPath.length - 1), 0);

/**
 * The units chapters are made of: the sections of the shallowest level with at least `count`
 * substantial ones (else of the level with the most), each over twice an average chapter replaced
 * by its own sections while it has some.
 */
export function bookUnits(paragraphs: Paragraph[], count: number): BookSection[] {
  const top = topDepth(paragraphs);
  if (top === null) return topSections(paragraphs, count).map((s) => ({ ...s, path: [s.title] }));
  const total = wordsOf(paragraphs, 0, paragraphs.length);
  const average = total / Math.max(1, count);
  const substantial = (units: BookSection[]) => units.filter((u) => u.words >= average * SUBSTANTIAL_SHARE).length;
  let units = sectionsAt(paragraphs, 0, paragraphs.length, top);
  for (let d = top + 1; d <= deepest(paragraphs) && substantial(units) < count; d++) {
    const deeper = sectionsAt(paragraphs, 0, paragraphs.length, d);
    if (substantial(deeper) > substantial(units)) units = deeper;
  }
  for (let i = 0; i < units.length; ) {
    const u = units[i]!;
    const parts = u.words > average * MAX_OVER_AVERAGE ? sectionsAt(paragraphs, u.from, u.to, u.path.length) : [];
    if (parts.length > 1) units.splice(i, 1, ...parts);
    else i++;
  }
  return withoutSlivers(units, paragraphs);
}

/** Units too short to be a chapter (a heading over one line) joined to the one after them, or before. */
function withoutSlivers(units: BookSection[], paragraphs: Paragraph[]): BookSection[] {
  const out = [...units];
  for (let i = 0; i < out.length && out.length > 1; ) {
    if (out[i]!.words >= MIN_PART_WORDS) {
      i++;
      continue;
    }
    const [a, b] = i + 1 < out.length ? [out[i]!, out[i + 1]!] : [out[i - 1]!, out[i]!];
    const keep = a === out[i] ? b : a;
    out.splice(Math.min(out.indexOf(a), out.indexOf(b)), 2, {
      ...keep,
      from: a.from,
      to: b.to,
      words: wordsOf(paragraphs, a.from, b.to),
    });
    i = Math.max(0, i - 1);
  }
  return out;
}

/**
 * Whether units [i, j) form a tidy group: at every heading level, within one section or whole
 * sections. Boundaries are counted once per level, so each question is answered in constant time.
 */
function tidiness(units: BookSection[]): (i: number, j: number) => boolean {
  const n = units.length;
  const levels = units.reduce((d, u) => Math.max(d, u.path.length), 0);
  const boundaries = Array.from({ length: levels }, (_, level) => {
    const at = (k: number) => keyOf(units[k]!.path.slice(0, level + 1));
    return Array.from({ length: n + 1 }, (_, k) => k === 0 || k === n || at(k) !== at(k - 1));
  });
  // before[level][k]: boundaries at positions 1..k-1.
  const before = boundaries.map((b) => {
    const sums = [0];
    for (let k = 1; k <= n; k++) sums.push(sums[k - 1]! + (k > 1 && b[k - 1] ? 1 : 0));
    return sums;
  });
  return (i, j) =>
    boundaries.every((b, level) => before[level]![j]! - before[level]![i + 1]! === 0 || (b[i]! && b[j]!));
}

/**
 * Consecutive groups of the units, exactly `count` (fewer only with fewer units): the fewest untidy
 * groups among those whose largest is within twice the average (or as small as it can be), then the
 * smallest largest group.
 */
export function groupUnits(units: BookSection[], count: number): BookSection[][] {
  const n = units.length;
  const k = Math.min(count, n);
  if (k <= 0) return [];
  const prefix = [0];
  for (const u of units) prefix.push(prefix.at(-1)! + Math.max(1, u.words));
  const size = (i: number, j: number) => prefix[j]! - prefix[i]!;
  const bound = Math.max(MAX_OVER_AVERAGE * (prefix[n]! / k), leastLargest(units, k));
  // best[g][j]: [untidy groups, largest group] of the best split of the first j units into g groups.
  const best = Array.from({ length: k + 1 }, () => new Array<[number, number] | null>(n + 1).fill(null));
  const cut = Array.from({ length: k + 1 }, () => new Array<number>(n + 1).fill(0));
  const tidy = tidiness(units);
  const better = (a: [number, number], b: [number, number] | null) =>
    !b || a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  best[0]![0] = [0, 0];
  for (let g = 1; g <= k; g++) {
    for (let j = g; j <= n; j++) {
      for (let i = g - 1; i < j; i++) {
        const before = best[g - 1]![i];
        if (!before || size(i, j) > bound) continue;
        const v: [number, number] = [before[0] + (tidy(i, j) ? 0 : 1), Math.max(before[1], size(i, j))];
        if (better(v, best[g]![j]!)) {
          best[g]![j] = v;
          cut[g]![j] = i;
        }
      }
    }
  }
  const groups: BookSection[][] = [];
  for (let g = k, j = n; g >= 1; g--) {
    const i = cut[g]![j]!;
    groups.unshift(units.slice(i, j));
    j = i;
  }
  return groups;
}

/** The smallest possible largest group of `k` consecutive groups (binary search over a greedy fill). */
function leastLargest(units: BookSection[], k: number): number {
  const sizes = units.map((u) => Math.max(1, u.words));
  const fits = (limit: number) => {
    let groups = 1;
    let sum = 0;
    for (const s of sizes) {
      if (s > limit) return false;
      if (sum + s > limit) [groups, sum] = [groups + 1, s];
      else sum += s;
    }
    return groups <= k;
  };
  let [lo, hi] = [Math.max(...sizes), sizes.reduce((a, b) => a + b, 0)];
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// Longer than this, headings joined read as a list rather than a title.
const MAX_JOINED_CHARS = 60;
// A heading's own number: "3 Sorting", "Chapter 3", "CHAPTER IV", "Part II" (a Roman numeral only
// after its word, or "Civil" would be one).
const NUMBER_RE = /^\s*(?:(?:chapter|part|section)\s+(\d+|[IVXLC]+)\b|(\d+)(?=[\s:]|\.(?!\d)))/i;
const numberOf = (title: string) => {
  const m = title.match(NUMBER_RE);
  return m ? (m[1] ?? m[2]!) : null;
};

/**
 * A group's title: its one section's heading; the heading of the one part it is exactly; its
 * headings joined while short ("A, B and C"); else "Chapters 3–5: First", numbered as the book
 * numbers its chapters (by their places where it numbers nothing), or "First through Last".
 */
export function bookGroupTitle(units: BookSection[], group: BookSection[]): string {
  if (group.length === 1) return cleanTitle(group[0]!.title);
  const first = group[0]!;
  const last = group.at(-1)!;
  const i = units.indexOf(first);
  const j = units.indexOf(last) + 1;
  // The shallowest heading the whole group lies under, when it begins and ends with it.
  for (let level = 1; level < first.path.length; level++) {
    const head = keyOf(first.path.slice(0, level));
    const under = (k: number) => k >= 0 && k < units.length && keyOf(units[k]!.path.slice(0, level)) === head;
    if (under(j - 1) && !under(i - 1) && !under(j)) return cleanTitle(first.path[level - 1]!);
  }
  const joined = groupTitle(group.map((u) => u.title));
  // groupTitle already gives "A through D" for a list too long for its own bound.
  if (joined.length <= MAX_JOINED_CHARS && !joined.includes(" through ")) return joined;
  // The book's own numbers; where it numbers none of them, their places are its numbering.
  const numbered = units.some((u) => numberOf(u.title) !== null || /^\s*\d/.test(u.title));
  const [a, b] = numbered ? [numberOf(first.title), numberOf(last.title)] : [String(i + 1), String(j)];
  if (!a || !b || a === b) return joined;
  const kind = /^\s*section/i.test(first.title) ? "Sections" : "Chapters";
  return `${kind} ${a}–${b}: ${cleanTitle(first.title)}`;
}

/** A source's chapters as groups of its sections, each with its title. */
export function bookChapters(paragraphs: Paragraph[], count: number): { title: string; sections: BookSection[] }[] {
  const units = bookUnits(paragraphs, count);
  const grouped = (pieces: BookSection[]) =>
    groupUnits(pieces, count).map((g) => ({ title: bookGroupTitle(pieces, g), sections: g }));
  if (units.length >= count) return grouped(units);
  // Splitting the largest until there are `count` pieces may leave one over twice the average;
  // then it is split further and neighbouring pieces share chapters instead.
  const limit = (MAX_OVER_AVERAGE * wordsOf(paragraphs, 0, paragraphs.length)) / count;
  let pieces = splitToCount(units, paragraphs, count) as BookSection[];
  for (let wanted = count + 1; wanted <= count * 2 && largest(pieces) > limit; wanted++) {
    const more = splitToCount(units, paragraphs, wanted) as BookSection[];
    if (more.length < wanted) break;
    pieces = more;
  }
  if (pieces.length > count) return grouped(pieces);
  return pieces.map((s) => ({ title: cleanTitle(s.title), sections: [s] }));
}

const largest = (sections: Section[]) => sections.reduce((m, s) => Math.max(m, s.words), 0);
