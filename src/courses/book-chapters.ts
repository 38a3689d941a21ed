/**
 * A source's chapters planned by its own heading tree, as a reader of the book would divide it:
 * - the units are the sections of the shallowest level that divides the text into at least as many
 *   substantial sections as chapters are asked (a book's parts, else its chapters, else their
 *   sections), with no unit over twice an average chapter: split at its sections while it has
 *   some, then at the lines that head its paragraphs or between paragraphs;
 * - fewer chapters than units: consecutive units are grouped, preferring groups that are one whole
 *   part (titled by it) or lie within one part, and keeping every group under twice the average;
 * - more chapters than units: the largest are split (chapter-groups.ts), at a subsection if they have one.
 * Every unit is in exactly one chapter, in document order.
 */
import { appendixStart } from "./appendix-tail.ts";
import { cleanTitle, groupTitle, splitToCount, tooThin } from "./chapter-groups.ts";
import { DIVISION_NUMBER_RE, divisionNumberOf, sectionNumberOf } from "./heading-numbers.ts";
import { nestUnderNumbered } from "./numbered-sections.ts";
import { type Paragraph, type Section, topDepth, topSections, wordsOf } from "./sections.ts";

/** A section with the headings that make it one: its own last, outermost first. */
export interface BookSection extends Section {
  path: string[];
  /** Whether it has headed sections of its own (a preface most often has none where chapters do). */
  divided?: boolean;
}

// A section under a tenth of an average chapter does not count as one of the book's divisions
// (a preface before three parts); it still joins the chapter beside it.
const SUBSTANTIAL_SHARE = 0.1;
// Appendices shorter than this share of an average chapter are planned with the body.
const TAIL_SHARE = 0.5;
// No chapter over this many times the average one: a longer section is split at its sections, else
// at its paragraphs.
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
    let divided = false;
    for (let i = current.from; i < end && !divided; i++) divided = paragraphs[i]!.headingPath.length > path.length;
    out.push({
      documentId: paragraphs[current.from]!.documentId,
      title: path.at(-1) ?? paragraphs[current.from]!.headingPath.at(-1) ?? "Introduction",
      path,
      from: current.from,
      to: end,
      depth: Math.max(0, path.length - 1),
      words: wordsOf(paragraphs, current.from, end),
      divided,
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
  return withoutSlivers(
    units.flatMap((u) => (u.words > average * MAX_OVER_AVERAGE ? leafPieces(u, paragraphs, average) : [u])),
    paragraphs,
  );
}

/**
 * A section over twice an average chapter with no headed sections of its own (an outline's leaf
 * "Attic" holding 78 of a book's 158 pages) in pieces of about an average chapter, cut where a
 * line heads what follows, else between paragraphs (chapter-groups.ts).
 */
function leafPieces(u: BookSection, paragraphs: Paragraph[], average: number): BookSection[] {
  const pieces = splitToCount([u], paragraphs, Math.ceil(u.words / average));
  return pieces.map((p) => ({ ...u, ...p, path: u.path, divided: false }));
}

/** Units too thin to be a chapter (a heading over one line or one sentence) joined to the one after them, or before. */
function withoutSlivers(units: BookSection[], paragraphs: Paragraph[]): BookSection[] {
  const out = [...units];
  for (let i = 0; i < out.length && out.length > 1; ) {
    if (!tooThin(paragraphs, out[i]!.from, out[i]!.to, out[i]!.words)) {
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
 * Consecutive groups of the units, exactly `count` (fewer only with fewer units), among those whose
 * largest is within twice the average (or as small as it can be): the fewest slivers (a group under
 * a tenth of the average: a two-page preface as one of four chapters), then the fewest untidy
 * groups, then the smallest largest group.
 */
export function groupUnits(units: BookSection[], count: number): BookSection[][] {
  const n = units.length;
  const k = Math.min(count, n);
  if (k <= 0) return [];
  const prefix = [0];
  for (const u of units) prefix.push(prefix.at(-1)! + Math.max(1, u.words));
  const size = (i: number, j: number) => prefix[j]! - prefix[i]!;
  const average = prefix[n]! / k;
  const bound = Math.max(MAX_OVER_AVERAGE * average, leastLargest(units, k));
  // best[g][j]: [slivers, untidy groups, largest group, sum of squared sizes] of the best split of
  // the first j units into g groups; the squares make the groups even where the largest is fixed.
  type Cost = [number, number, number, number];
  const best = Array.from({ length: k + 1 }, () => new Array<Cost | null>(n + 1).fill(null));
  const cut = Array.from({ length: k + 1 }, () => new Array<number>(n + 1).fill(0));
  const tidy = tidiness(units);
  const better = (a: Cost, b: Cost | null) => {
    if (!b) return true;
    const k = a.findIndex((x, i) => x !== b[i]);
    return k >= 0 && a[k]! < b[k]!;
  };
  best[0]![0] = [0, 0, 0, 0];
  for (let g = 1; g <= k; g++) {
    for (let j = g; j <= n; j++) {
      for (let i = g - 1; i < j; i++) {
        const before = best[g - 1]![i];
        if (!before || size(i, j) > bound) continue;
        const v: Cost = [
          before[0] + (size(i, j) < average * SUBSTANTIAL_SHARE ? 1 : 0),
          before[1] + (tidy(i, j) ? 0 : 1),
          Math.max(before[2], size(i, j)),
          before[3] + size(i, j) ** 2,
        ];
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
/** A heading's words without its number: "CHAPTER ONE INTRODUCTION" is "INTRODUCTION", "1. Introduction" is "Introduction". */
const bareTitle = (title: string) => {
  const clean = cleanTitle(title);
  return (
    clean
      .replace(DIVISION_NUMBER_RE, "")
      .replace(/^[\s.:]+/, "")
      .trim() || clean
  );
};
/** "Parts", "Sections" or "Chapters", as the book names the divisions a range counts. */
const kindOf = (title: string) => {
  const word = DIVISION_NUMBER_RE.exec(title)?.[1]?.toLowerCase();
  return word === "part" ? "Parts" : word === "section" ? "Sections" : "Chapters";
};

/**
 * A title for consecutive divisions: their titles joined while short and none is a question ("A, B
 * and C"); else "Chapters 3–5: First" ("Parts II–III: …"), numbered as the book numbers them, or
 * "First through Last" where it numbers them not.
 */
function rangeTitle(titles: string[]): string {
  if (titles.length === 1) return cleanTitle(titles[0]!);
  const joined = groupTitle(titles.map(bareTitle));
  // A question or an exclamation is a sentence, no item of a list: "Can You Trust Your Computer? and …" reads broken.
  const listable = titles.every((t) => !/[?!]["'”’)]?$/.test(t.trim()));
  const short = listable && joined.length <= MAX_JOINED_CHARS && !joined.includes(" through ");
  const first = titles[0]!;
  const last = titles.at(-1)!;
  // Sections of one chapter, numbered as the book numbers them: "3.1–3.3: Prepare, Categorize and Select".
  const [x, y] = [sectionNumberOf(first), sectionNumberOf(last)];
  if (x && y && x !== y) return `${x}–${y}: ${short ? joined : `${bareTitle(first)} through ${bareTitle(last)}`}`;
  // groupTitle already gives "A through D" for a list too long for its own bound.
  if (short) return joined;
  // Numbers the book does not print would contradict the ones it does ("Chapters 1–7: V2: …"
  // for its sections V2 to V8): a book that numbers no division gets its own first and last titles.
  const [a, b] = [divisionNumberOf(first), divisionNumberOf(last)];
  return a && b && a !== b ? `${kindOf(first)} ${a}–${b}: ${bareTitle(first)}` : joined;
}

/**
 * How many units open a book that numbers no chapter: where most units have sections of their own,
 * the leading ones with none (a preface, a foreword, a notice before the chapters) are no chapter.
 */
function openingRun(units: BookSection[]): number {
  if (units.filter((u) => u.divided).length * 2 <= units.length) return 0;
  const first = units.findIndex((u) => u.divided);
  return Math.max(0, first);
}

/**
 * A group's title: its one section's heading; the heading of the one part it is exactly; the
 * parts it covers whole, where the book has parts; else the range from its first body chapter, so
 * an unnumbered opening (a preface, a notice) never names the group where the book numbers its
 * chapters, nor where it numbers none but the opening stands apart by having no sections. Parts
 * are the headings at depth `top`, the document's top level.
 */
export function bookGroupTitle(units: BookSection[], group: BookSection[], top = 0): string {
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
  // Whole parts: the group's units inside parts (an opening such as a preface may stand before
  // them) start where a part starts and end where one ends.
  const inPart = (u: BookSection | undefined) => (u && u.path.length > top + 1 ? u.path[top]! : null);
  const inside = group.filter((u) => inPart(u) !== null);
  const a = units.indexOf(inside[0]!);
  const b = units.indexOf(inside.at(-1)!);
  if (inside.length > 0 && inPart(units[a - 1]) !== inPart(units[a]) && inPart(units[b + 1]) !== inPart(units[b])) {
    const parts = [...new Set(inside.map(inPart) as string[])];
    return rangeTitle(parts);
  }
  // Where the book has parts, its chapters are the units inside them: an opening before them is none.
  const inParts = units.some((u) => inPart(u) !== null) ? units.filter((u) => inPart(u) !== null) : units;
  const numbered = inParts.some((u) => divisionNumberOf(u.title) !== null);
  const chapters = numbered ? inParts : inParts.slice(openingRun(inParts));
  const lead = group.findIndex((u) => chapters.includes(u) && (!numbered || divisionNumberOf(u.title) !== null));
  return rangeTitle(group.slice(Math.max(0, lead)).map((u) => u.title));
}

type BookChapter = { title: string; sections: BookSection[] };

/**
 * A source's chapters as groups of its sections, each with its title. A document whose numbered
 * chapters are followed by appendices (appendix-tail.ts) gives its body the chapters first: the
 * appendices get as few chapters as keep each within twice the average, after the body's.
 * Appendices under half an average chapter (a few pages of installation notes) are no chapter of
 * their own beside the others: they are planned with the body.
 */
export function bookChapters(paragraphs: Paragraph[], count: number): BookChapter[] {
  const top = topDepth(paragraphs);
  const tree = top === null ? paragraphs : nestUnderNumbered(paragraphs, top);
  const tail = count >= 2 ? appendixStart(tree) : null;
  const total = wordsOf(tree, 0, tree.length);
  const average = total / Math.max(1, count);
  if (tail === null || wordsOf(tree, tail, tree.length) < average * TAIL_SHARE) return chaptersOf(tree, count);
  const appendices = tree.slice(tail);
  let planned = chaptersOf(appendices, 1);
  for (let k = 2; k < count && largestChapter(planned) > MAX_OVER_AVERAGE * average; k++) {
    planned = chaptersOf(appendices, k);
  }
  const tailTop = topDepth(appendices) ?? 0;
  const shifted = planned.map((c) => ({
    title: appendicesTitle(c, tailTop),
    sections: c.sections.map((s) => ({ ...s, from: s.from + tail, to: s.to + tail })),
  }));
  return [...chaptersOf(tree.slice(0, tail), count - planned.length), ...shifted];
}

/** A chapter of several appendices is titled as one: "Appendices: Glossary, Acronyms and Roles". */
function appendicesTitle(chapter: BookChapter, top: number): string {
  const appendices = [...new Set(chapter.sections.map((s) => s.path[top] ?? s.title))];
  return appendices.length > 1 ? `Appendices: ${groupTitle(appendices)}` : chapter.title;
}

const largestChapter = (chapters: BookChapter[]) =>
  chapters.reduce(
    (m, c) =>
      Math.max(
        m,
        c.sections.reduce((n, s) => n + s.words, 0),
      ),
    0,
  );

/** A source's chapters by its heading tree alone. */
function chaptersOf(paragraphs: Paragraph[], count: number): BookChapter[] {
  const units = bookUnits(paragraphs, count);
  const top = topDepth(paragraphs) ?? 0;
  const grouped = (pieces: BookSection[]) =>
    groupUnits(pieces, count).map((g) => ({ title: bookGroupTitle(pieces, g, top), sections: g }));
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
