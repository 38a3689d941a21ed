/** Flashcards: definition sentences first, then one card per key concept not yet covered. */
import type { ChapterSummary } from "../artefacts/common.ts";
import type { FlashcardDeck } from "../schemas.ts";
import { findDefinitions } from "./definitions.ts";
import { chapterMaterial, sentenceAbout } from "./material.ts";

export function extractiveFlashcards(input: { courseTitle: string; chapters: ChapterSummary[] }): FlashcardDeck {
  const cards: { front: string; back: string }[] = [];
  const fronts = new Set<string>();
  const add = (front: string, back: string) => {
    const key = front.toLowerCase().trim();
    if (fronts.has(key)) return;
    fronts.add(key);
    cards.push({ front, back });
  };
  for (const [i, chapter] of input.chapters.entries()) {
    const m = chapterMaterial(chapter, i);
    const defs = findDefinitions(m.sentences);
    for (const d of defs) add(`What is ${d.term}?`, d.definition);
    for (const concept of chapter.key_concepts) {
      if (defs.some((d) => d.term.toLowerCase() === concept.toLowerCase())) continue;
      const s = sentenceAbout(m, concept);
      add(`Explain: ${concept}`, s ? s.text : `A key concept of the chapter "${chapter.title}".`);
    }
  }
  return { deck_title: `${input.courseTitle}: Flashcards`, cards, total: cards.length };
}
