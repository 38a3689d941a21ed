import { usesExtractive } from "../models.ts";
import { render, templates } from "../prompts/index.ts";
import { type Flashcard, type FlashcardDeck, FlashcardsReply } from "../schemas.ts";
import type { Llm } from "../types.ts";
import type { ChapterSummary } from "./chapter-summary.ts";
import { cardProblems, tellOnce } from "./checks.ts";
import { type ArtefactOptions, chaptersWithin, extractive, uniqueBy } from "./common.ts";
import { definesTerm } from "./item-checks.ts";

export interface FlashcardsInput extends ArtefactOptions {
  courseTitle: string;
  chapters: ChapterSummary[];
}

/**
 * A deck covering the chapters' key concepts, with no repeated fronts or backs. A model's card that
 * does not define its front is re-asked once, then left out.
 */
export async function writeFlashcards(llm: Llm, input: FlashcardsInput): Promise<FlashcardDeck> {
  if (usesExtractive(llm, input.model)) return extractive(llm, "extractiveFlashcards", input);
  const concepts = [...new Set(input.chapters.flatMap((c) => c.key_concepts))];
  const minCards = Math.max(concepts.length, 10);
  const prompt = chaptersWithin(
    llm,
    "flashcards",
    (chapters) =>
      render(templates.flashcards, {
        courseTitle: input.courseTitle,
        chapters,
        conceptCount: concepts.length,
        minCards,
        maxCards: Math.min(200, minCards + 20),
      }),
    input.chapters,
  );
  const reply = await llm.generateObject(FlashcardsReply, prompt, {
    task: "flashcards",
    model: input.model,
    meter: input.meter,
    refine: tellOnce((r) => cardProblems(r.cards)),
  });
  // A card whose back still does not define its front is left out; its concept gets a built-in card below.
  const defining = reply.cards.filter(definesTerm);
  // One card per front, and no two cards with one back: a learner could not tell them apart.
  const cards = uniqueBy(
    uniqueBy([...defining, ...(await missingConceptCards(llm, input, defining))], (c) => c.front),
    (c) => c.back,
  );
  return { deck_title: reply.deck_title, cards, total: cards.length };
}

/**
 * Models skip concepts now and then; re-asking for a whole deck over one card is wasteful, so the
 * concepts no card mentions get an extractive card from the chapter text.
 */
async function missingConceptCards(llm: Llm, input: FlashcardsInput, cards: Flashcard[]): Promise<Flashcard[]> {
  const text = cards.map((c) => `${c.front} ${c.back}`.toLowerCase());
  const missing = input.chapters
    .map((c) => ({ ...c, key_concepts: c.key_concepts.filter((k) => !text.some((t) => t.includes(k.toLowerCase()))) }))
    .filter((c) => c.key_concepts.length > 0);
  if (missing.length === 0) return [];
  const filler = (await extractive(llm, "extractiveFlashcards", { courseTitle: input.courseTitle, chapters: missing }))
    .cards;
  const wanted = missing.flatMap((c) => c.key_concepts.map((k) => k.toLowerCase()));
  return filler.filter((c) => wanted.some((k) => c.front.toLowerCase().includes(k)));
}
