/**
 * Heading titles compared as a reader would: case, quotes, dashes, ligatures, leading numbering
 * ("3.2", "IV.", "A.1") and labels ("Chapter 1:", "CHAPTER ONE", "Part II", "Appendix B") do not
 * matter, and a title cut at a line break matches its whole when it is at least half of it.
 */
const NUMBER_WORDS =
  "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty";
const LABEL = new RegExp(
  `^(chapter|part|appendix|section|lecture|lesson|unit|book)\\s+(\\d+|[ivxlc]+|[a-z]|${NUMBER_WORDS})\\b\\s*[:.–—-]?\\s*`,
);
const NUMBERING = /^((\d+|[a-z])(\.\d+)*|[ivxlc]+)[.):]?\s+(?=\S)/;

const lowered = (title: string) =>
  title
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[‘’´`]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[‐‑‒–—―−]/g, "-")
    .trim();
const words = (t: string) => t.replace(/[^\p{L}\p{N}]+/gu, " ").trim();

/** Lowercase letters and digits of a title without its number or label ("" for a bare "Chapter 3"). */
export function normTitle(title: string): string {
  return words(lowered(title).replace(LABEL, "").replace(NUMBERING, ""));
}

/**
 * The ways a title may read: without its number or label, and with a leading word of one letter
 * kept, which is an article or a name ("A Bit of History", "X server connection") as often as a
 * numbering ("A Title" of an appendix).
 */
function titleForms(title: string): string[] {
  const bare = normTitle(title) || normText(title);
  const lettered = words(lowered(title).replace(LABEL, ""));
  return /^[a-z] /.test(lettered) && lettered !== bare ? [bare, lettered] : [bare];
}

/** Normalised text of a whole page or document, for "is this title printed here". */
export const normText = (s: string) =>
  s
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** How deep a title's own numbering goes: "3.2.1 Foo" is 3, "Foo" 0. */
export function numberingDepth(title: string): number {
  const m = /^\s*(?:[A-Z]|\d+)((?:\.\d+)*)\.?\s/.exec(title);
  return m ? 1 + (m[1]!.match(/\./g)?.length ?? 0) : 0;
}

/** Whether two titles are the same heading (a bare label compares as written, lowercased). */
export function sameTitle(a: string, b: string): boolean {
  return titleForms(a).some((x) => titleForms(b).some((y) => sameForm(x, y)));
}

function sameForm(x: string, y: string): boolean {
  if (!x || !y) return false;
  if (x === y) return true;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return long.startsWith(short) && short.length * 2 >= long.length;
}

/**
 * Looks like a heading rather than a bookmarked paragraph: short, not cut off, not a long sentence,
 * not a sentence under a run-in label ("Primary Responsibility: Control Assessor.").
 */
export function headingLike(title: string): boolean {
  const t = title.trim();
  const words = t.split(/\s+/).length;
  if (words > 15 || /(\.\.\.|…)$/.test(t) || /^[^:.]{2,40}:\s+\S.*[.!](\d{1,3}[a-z]?)?$/i.test(t)) return false;
  return !(words >= 8 && /[.!]$/.test(t));
}
