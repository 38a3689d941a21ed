/** The flashcard deck: cached per (course, model); a different model makes a fresh deck. */
import type { Database } from "bun:sqlite";
import type { CourseHead } from "../courses/read.ts";
import { type FlashcardDeck, writeFlashcards } from "../llm/artefacts.ts";
import { type FallbackDeps, type GeneratedBy, generatedBy } from "../llm/fallback.ts";
import { newId, nowIso } from "../util.ts";
import { assertCompleted } from "./assert-completed.ts";
import { type MaterialDeps, writeMaterial } from "./engine.ts";
import { materialSource } from "./material-source.ts";
import { chooseModel } from "./model-choice.ts";
import { cachedOrMade } from "./single-flight.ts";

export interface FlashcardsResult {
  flashcards: FlashcardDeck;
  from_cache: boolean;
  engine: string;
  model: string;
  generated_by: GeneratedBy;
  created_at: string;
}

function readDeck(sqlite: Database, courseId: string, model: string): Omit<FlashcardsResult, "from_cache"> | null {
  const row = sqlite
    .query<{ deck: string; engine: string; model: string; created_at: string }, [string, string]>(
      "SELECT deck, engine, model, created_at FROM flashcard_decks WHERE course_id = ? AND model = ?",
    )
    .get(courseId, model);
  return row
    ? {
        flashcards: JSON.parse(row.deck) as FlashcardDeck,
        engine: row.engine,
        generated_by: generatedBy(row.engine),
        model: row.model,
        created_at: row.created_at,
      }
    : null;
}

export interface StoredDeck {
  id: string;
  model: string;
  deck: FlashcardDeck;
}

/**
 * The course's newest deck (of `model` when given), or null when none was generated; exports and
 * learner progress both take this one.
 */
export function findDeck(sqlite: Database, courseId: string, model?: string | null): StoredDeck | null {
  const row = sqlite
    .query<{ id: string; model: string; deck: string }, [string, string | null]>(
      `SELECT id, model, deck FROM flashcard_decks WHERE course_id = ?1 AND (?2 IS NULL OR model = ?2)
        ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    )
    .get(courseId, model ?? null);
  return row ? { id: row.id, model: row.model, deck: JSON.parse(row.deck) as FlashcardDeck } : null;
}

/** Fronts compared without case, spacing or punctuation, so near-identical cards count once. */
function withoutDuplicates(deck: FlashcardDeck): FlashcardDeck {
  const seen = new Set<string>();
  const cards = deck.cards.filter((c) => {
    const key = c.front
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { deck_title: deck.deck_title, cards, total: cards.length };
}

export async function generateFlashcards(
  svc: MaterialDeps & FallbackDeps,
  course: CourseHead,
  opts: { modelKey?: string | null },
): Promise<FlashcardsResult> {
  assertCompleted(course);
  const model = await chooseModel(svc.llm, course, opts.modelKey);
  return cachedOrMade(
    `flashcards:${course.id}:${model}`,
    () => readDeck(svc.sqlite, course.id, model),
    async () => {
      const { maker, source } = materialSource(svc, course, model);
      const { value: deck, engine } = await writeMaterial(
        svc,
        maker,
        { course_id: course.id, step: "flashcards" },
        (m) => writeFlashcards(svc.llm, { ...source, model: m.model }),
      );
      svc.sqlite.run(
        "INSERT OR IGNORE INTO flashcard_decks (id, course_id, model, deck, engine, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        [newId(), course.id, maker.model, JSON.stringify(withoutDuplicates(deck)), engine, nowIso()],
      );
    },
  );
}
