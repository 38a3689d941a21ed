/**
 * Where a report's, standard's, thesis's or manual's appendices begin, read from its heading tree:
 * the top-level entries after its numbered chapters when one of them is an appendix ("Appendix C
 * Acronyms", an entry ingest gave the appendix role, or a run of lettered entries "A …", "B …").
 * An unnumbered entry between the last numbered chapter and the first appendix (a glossary whose
 * "Appendix B" label the outline left out) belongs to the appendices too.
 */
import { divisionNumberOf } from "./heading-numbers.ts";
import { type Paragraph, type Section, topSections } from "./sections.ts";

const APPENDIX_TITLE_RE = /^\s*(appendix|appendices|annex|annexes)\b/i;
/** "A Distant Supervision", "B. Proofs": a letter as a label (only in a run of two or more). */
const LETTER_RE = /^\s*([A-Z])(?:[.:)]\s*|\s+)(?=\p{L})/u;
const letterOf = (title: string) => LETTER_RE.exec(title)?.[1] ?? null;
const nextLetter = (a: string | null, b: string | null) =>
  a !== null && b !== null && b.charCodeAt(0) === a.charCodeAt(0) + 1;

/**
 * The paragraph index the appendices start at, or null when the document has none after a body:
 * no top-level entry is an appendix, or the first one opens the document.
 */
export function appendixStart(paragraphs: Paragraph[]): number | null {
  const sections = topSections(paragraphs, 1);
  const titles = sections.map((s) => s.title);
  const letters = titles.map(letterOf);
  const isAppendix = (s: Section, i: number) =>
    APPENDIX_TITLE_RE.test(titles[i]!) ||
    paragraphs.slice(s.from, s.to).some((p) => p.role === "appendix") ||
    nextLetter(letters[i]!, letters[i + 1] ?? null) ||
    nextLetter(letters[i - 1] ?? null, letters[i]!);
  const first = sections.findIndex(isAppendix);
  if (first <= 0) return null;
  const numbered = titles.slice(0, first).flatMap((t, i) => (divisionNumberOf(t) !== null ? [i] : []));
  const start = numbered.length >= 2 ? numbered.at(-1)! + 1 : first;
  return sections[start]!.from;
}
