/**
 * Flashcards from what the chapters and the sections they were written from define: a term on the
 * front and its definition on the back, or an abbreviation and what it stands for. The deck is as
 * large as the material: a concept the text never defines gets no card rather than a padded one
 * (causes and figures are asked in the exam and listed in the study guide instead). A card whose
 * back does not say what its term is or does (item-checks.ts) is left out.
 */
import type { ChapterSummary } from "../artefacts/chapter-summary.ts";
import { definesTerm } from "../artefacts/item-checks.ts";
import type { FlashcardDeck } from "../schemas.ts";
import { definitionText } from "./definitions.ts";
import { materialsOf } from "./material.ts";

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** The term and dash opening a glossary's or definition list's entry ("adequate security — "). */
const ENTRY_RE = /^[^—]{1,60}?\s+—\s+/;

export function extractiveFlashcards(input: { courseTitle: string; chapters: ChapterSummary[] }): FlashcardDeck {
  const cards: { front: string; back: string }[] = [];
  const fronts = new Set<string>();
  const backs = new Set<string>();
  /** A card, judged on the sentence that defines its front (a glossary entry's back is its definition alone). */
  const add = (front: string, back: string, judged = back) => {
    const f = front.toLowerCase().trim();
    const b = back.toLowerCase().trim();
    // One card per term, and no two cards with one back: a learner could not tell them apart.
    if (fronts.has(f) || backs.has(b) || !definesTerm({ front, back: judged })) return;
    fronts.add(f);
    backs.add(b);
    cards.push({ front, back });
  };
  for (const [i, chapter] of input.chapters.entries()) {
    const materials = materialsOf(chapter, i);
    for (const d of materials.flatMap((m) => m.definitions)) {
      const front = /^\p{Ll}/u.test(d.term) ? upperFirst(d.term) : d.term;
      const text = d.sentence.text;
      if (d.kind === "acronym") add(`What does ${d.term} stand for?`, d.predicate);
      else if (ENTRY_RE.test(text)) add(front, text.replace(ENTRY_RE, ""), text);
      // A glossary line's back is its definition alone: the front already says the term ("integer: A type …").
      else add(front, definitionText(d), text);
    }
  }
  return { deck_title: `${input.courseTitle}: Flashcards`, cards, total: cards.length };
}
