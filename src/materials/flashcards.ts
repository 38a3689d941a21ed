/** The flashcard deck: cached per (course, model); a different model makes a fresh deck. */
import type { CourseHead } from "../courses/read.ts";
import { type Sql, sql } from "../db/sql.ts";
import { type FlashcardDeck, writeFlashcards } from "../llm/artefacts.ts";
import { type FallbackDeps, type GeneratedBy, generatedBy } from "../llm/fallback.ts";
import { newId, nowIso } from "../util.ts";
import { assertCompleted } from "./assert-completed.ts";
import { type Maker, type MaterialDeps, writeMaterial } from "./engine.ts";
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

/** The deck of (course, model), as generate-flashcards answers it. */
export async function readDeck(
  db: Sql,
  courseId: string,
  model: string,
): Promise<Omit<FlashcardsResult, "from_cache"> | null> {
  const row = await db.get<{ deck: string; engine: string; model: string; created_at: string }>(
    sql`SELECT deck, engine, model, created_at FROM flashcard_decks WHERE course_id = ${courseId} AND model = ${model}`,
  );
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
export async function findDeck(db: Sql, courseId: string, model?: string | null): Promise<StoredDeck | null> {
  const ofModel = (model ?? null) === null ? sql`` : sql` AND model = ${model}`;
  const row = await db.get<{ id: string; model: string; deck: string }>(
    sql`SELECT id, model, deck FROM flashcard_decks WHERE course_id = ${courseId}${ofModel}
         ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
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

/** Stores the deck of (course, maker's model) unless there is one: the first deck stays. */
export async function storeDeck(db: Sql, courseId: string, deck: FlashcardDeck, by: Maker): Promise<void> {
  await db.run(
    sql`INSERT INTO flashcard_decks (id, course_id, model, deck, engine, created_at)
        VALUES (${newId()}, ${courseId}, ${by.model}, ${JSON.stringify(deck)}, ${by.engine}, ${nowIso()})
        ON CONFLICT DO NOTHING`,
  );
}

export async function generateFlashcards(
  svc: MaterialDeps & FallbackDeps,
  course: CourseHead,
  opts: { modelKey?: string | null },
): Promise<FlashcardsResult> {
  assertCompleted(course);
  const model = await chooseModel(svc.llm, course, opts.modelKey);
  return cachedOrMade(
    svc.sql,
    `flashcards:${course.id}:${model}`,
    (db) => readDeck(db, course.id, model),
    async (db) => {
      const { maker, source } = await materialSource(svc, db, course, model);
      const { value: deck, engine } = await writeMaterial(
        svc,
        maker,
        { course_id: course.id, step: "flashcards" },
        (m) => writeFlashcards(svc.llm, { ...source, model: m.model }),
      );
      await storeDeck(db, course.id, withoutDuplicates(deck), { engine, model: maker.model });
    },
  );
}
