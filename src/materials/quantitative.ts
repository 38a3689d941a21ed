/** Whether a chapter works with numbers and formulas, so its exam share includes worked problems. */
import type { ChapterSummary } from "../llm/artefacts.ts";

// Arithmetic between numbers or variables, "=" with a number, formulas like P(A | B) or n!, LaTeX.
const FORMULA =
  /(\d\s*[×x*/+^−-]\s*\d|[=≈≤≥]\s*[-−]?\d|\b[A-Za-z]\s*\([^()]{1,20}\)\s*=|\b\w+!|\\frac|\$[^$\n]+\$|\b\d+\s*%)/g;
const VOCABULARY =
  /\b(calculate|compute|formula|equation|solve|derive|probability|ratio|percent(age)?|sum|product|theorem)\b/gi;

/** Enough formula-like spots or calculation vocabulary, scaled by length so long prose needs more. */
export function isQuantitative(chapter: ChapterSummary): boolean {
  const text = chapter.content;
  const formulas = text.match(FORMULA)?.length ?? 0;
  const words = text.match(VOCABULARY)?.length ?? 0;
  const per1000 = ((formulas * 2 + words) * 1000) / Math.max(1000, text.length);
  return formulas >= 3 && per1000 >= 4;
}
