/**
 * The numbers a book prints in its headings, read one way for every planner: a division's own
 * number ("3 Sorting", "Chapter 3", "CHAPTER ONE", "Part II") and a section's dotted one ("3.1",
 * "A.2").
 */

const WORD_NUMBERS =
  "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split(
    " ",
  );

/**
 * A heading's own number: "3 Sorting", "Chapter 3", "CHAPTER IV", "CHAPTER ONE", "Part II" (a Roman
 * numeral or a spelled number only after its word, or "Civil" would be one). Group 1 is the word.
 */
export const DIVISION_NUMBER_RE = new RegExp(
  `^\\s*(?:(chapter|part|section)\\s+(\\d+|[IVXLC]+|${WORD_NUMBERS.join("|")})\\b[.:]?|(\\d+)(?=[\\s:]|\\.(?!\\d)))`,
  "i",
);

/** A heading's own number as the book writes it ("ONE" read as "1"), or null. */
export function divisionNumberOf(title: string): string | null {
  const m = title.match(DIVISION_NUMBER_RE);
  if (!m) return null;
  const spelled = WORD_NUMBERS.indexOf((m[2] ?? "").toLowerCase());
  return spelled >= 0 ? String(spelled + 1) : (m[2] ?? m[3]!);
}

/** "3.1 Prepare", "12.4.2 Scope", "A.2 Terms": a section's dotted number (group 1) and its words. */
const SECTION_NUMBER_RE = /^\s*((?:\d+|[A-Z])(?:\.\d+)+)\.?\s+\S/u;

/** A heading's dotted section number ("3.1"), or null. */
export const sectionNumberOf = (title: string): string | null => SECTION_NUMBER_RE.exec(title)?.[1] ?? null;
