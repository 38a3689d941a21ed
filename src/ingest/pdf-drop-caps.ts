/**
 * A drop cap: a paragraph's first letter set several lines tall at its left, the rest of the word
 * beside it ("T" and "his chapter describes …"). pdf.js gives the letter as a line of its own, often
 * after everything else on the page, so the paragraph read "his chapter describes" and a stray "T"
 * ended the page. The letter goes back to the start of the highest line beside it that opens with
 * a lower-case letter.
 */
import type { PdfLine } from "./pdf-layout.ts";

/** A drop cap stands at least this many times the size of the text beside it. */
const CAP_SCALE = 2;

const SINGLE_CAPITAL_RE = /^\p{Lu}$/u;
const LOWER_START_RE = /^\p{Ll}/u;

export function joinDropCaps(lines: PdfLine[]): PdfLine[] {
  const caps = lines.filter((l) => SINGLE_CAPITAL_RE.test(l.text));
  if (caps.length === 0) return lines;
  const dropped = new Set<PdfLine>();
  const joined = new Map<PdfLine, PdfLine>();
  for (const cap of caps) {
    const beside = lines.filter(
      (l) =>
        l !== cap &&
        !joined.has(l) &&
        l.size * CAP_SCALE <= cap.size &&
        l.x > cap.x &&
        l.x - cap.x <= cap.size * 1.2 &&
        l.y >= cap.y - l.size &&
        l.y <= cap.y + cap.size,
    );
    const first = beside.reduce<PdfLine | null>((a, b) => (a === null || b.y > a.y ? b : a), null);
    if (!first || !LOWER_START_RE.test(first.text)) continue;
    joined.set(first, {
      ...first,
      text: cap.text + first.text,
      lead: { ...first.lead, text: cap.text + first.lead.text },
    });
    dropped.add(cap);
  }
  return lines.filter((l) => !dropped.has(l)).map((l) => joined.get(l) ?? l);
}
