/**
 * A line that lists people: a paper's or a deck's authors ("Qingyun Wu , Gagan Bansal , Jieyu Zhang,
 * …", "W. N. Venables, D. M. Smith and the R Core Team"). Its names are who wrote the text, not what
 * it teaches.
 */

/** Footnote and affiliation marks after a name ("Gal∗+", "Min†", "Chang+#", "Smith1"). */
const MARKS_RE = /[∗*†‡§¶#$+\d¹²³⁴⁵⁶⁷⁸⁹⁰]+/gu;
/** One name: two to four capitalised words or initials ("Ryen W. White", "Barlas Oğuz", "Wen-tau Yih"). */
const NAME_RE =
  /^(\p{Lu}[\p{L}'’-]*\.?|\p{Lu}\.)(\s+(\p{Lu}[\p{L}'’-]*\.?|\p{Lu}\.|van|von|de|der|da|di|le|la)){1,3}$/u;

/** The items of a list of names, split at commas, semicolons and "and". */
const items = (text: string) =>
  text
    .replace(MARKS_RE, " ")
    .split(/\s*[,;]\s*|\s+and\s+|\s*&\s*/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Whether a line is a list of at least three people's names (one item in five may be a team, "the R Core Team"). */
export function isNameList(text: string): boolean {
  if (text.length > 600 || /[.!?]$/.test(text.trim()) || /\p{Ll}{3,}\s+\p{Ll}{3,}\s+\p{Ll}{3,}/u.test(text))
    return false;
  const parts = items(text);
  const names = parts.filter((p) => NAME_RE.test(p)).length;
  return parts.length >= 3 && names >= 3 && names >= 0.8 * parts.length;
}

/** The words of the names a list holds ("Gagan", "Bansal", "Jiang", …). */
export function nameWords(text: string): string[] {
  return items(text)
    .filter((p) => NAME_RE.test(p))
    .flatMap((p) => p.split(/\s+/))
    .filter((w) => !/^\p{Lu}\.$/u.test(w));
}

/** Lower-case words inside a name ("Ludwig van Beethoven"), and the "and" between names. */
const NAME_JOINERS = new Set(["and", "van", "von", "de", "der", "da", "di", "le", "la"]);

/**
 * The people a paragraph opens with, followed by what they did: an entry of a contributor or
 * thanks list ("Karl Berry, Bob Chassell, and M. Ramakrishnan for their expert advice", "Lisa
 * (Opus) Goldstein for her help"). The names run to the first lower-case word; none when anything
 * but names stands there, or nothing follows them.
 */
export function leadingNames(text: string): string[] {
  const words = text
    .replace(/\([^)]*\)/g, " ")
    .trim()
    .split(/\s+/);
  const end = words.findIndex((w) => /^\p{Ll}/u.test(w) && !NAME_JOINERS.has(w.replace(/[,;]$/, "")));
  if (end <= 0) return [];
  const lead = words
    .slice(0, end)
    .join(" ")
    .replace(/^and\s+|,?\s+and\s+/g, ", ");
  // Degrees and honours after a name ("Julie Sussman, P.P.A.") are not names of their own.
  const parts = items(lead).filter((p) => !/^(\p{Lu}\.){2,}$/u.test(p));
  return parts.length > 0 && parts.every((p) => NAME_RE.test(p)) ? parts : [];
}

/**
 * Whether a table lists people: at least three filled cells, four in five of them one person's
 * name (a contributors grid; a handle such as "lyz-code" may stand among them).
 */
export function isNameTable(cells: string[][]): boolean {
  const filled = cells
    .flat()
    .map((c) => c.replace(MARKS_RE, " ").trim())
    .filter(Boolean);
  const names = filled.filter((c) => NAME_RE.test(c)).length;
  return filled.length >= 3 && names >= 0.8 * filled.length;
}
