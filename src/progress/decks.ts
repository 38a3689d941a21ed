/**
 * Which cached deck or exam a learner works on. Each is cached per model; without a model_key the
 * course's first one is used, so a deck generated later with another model never changes what a
 * learner's card indexes and schedules refer to.
 */
import type { Database } from "bun:sqlite";
import { AppError } from "../errors.ts";
import type { ExamQuestion, FlashcardDeck } from "../llm/artefacts.ts";
import { canonicalModel } from "../llm/providers/transport.ts";

export interface StoredDeck {
  id: string;
  model: string;
  deck: FlashcardDeck;
}

export interface StoredExam {
  id: string;
  model: string;
  exam_size: number;
  questions: ExamQuestion[];
}

/** The course's deck (the first generated, or the one of `modelKey`), or null when none was generated. */
export function findDeck(sqlite: Database, courseId: string, modelKey?: string): StoredDeck | null {
  const row = sqlite
    .query<{ id: string; model: string; deck: string }, [string, string | null]>(
      `SELECT id, model, deck FROM flashcard_decks WHERE course_id = ?1 AND (?2 IS NULL OR model = ?2)
        ORDER BY created_at, id LIMIT 1`,
    )
    .get(courseId, modelKey ? canonicalModel(modelKey.trim()) : null);
  return row ? { id: row.id, model: row.model, deck: JSON.parse(row.deck) as FlashcardDeck } : null;
}

export function courseDeck(sqlite: Database, courseId: string, modelKey?: string): StoredDeck {
  const deck = findDeck(sqlite, courseId, modelKey);
  if (deck) return deck;
  throw new AppError(
    "FLASHCARDS_NOT_FOUND",
    `No flashcard deck${modelKey ? ` made by ${modelKey}` : ""} for this course yet; generate it with POST /v2/courses/${courseId}/generate-flashcards`,
  );
}

/** The cached exam of `size` questions (the first generated, or the one of `modelKey`); 404 when there is none. */
export function courseExam(sqlite: Database, courseId: string, size: number, modelKey?: string): StoredExam {
  const row = sqlite
    .query<{ id: string; model: string; exam: string }, [string, number, string | null]>(
      `SELECT id, model, exam FROM exams WHERE course_id = ?1 AND exam_size = ?2 AND (?3 IS NULL OR model = ?3)
        ORDER BY created_at, id LIMIT 1`,
    )
    .get(courseId, size, modelKey ? canonicalModel(modelKey.trim()) : null);
  if (!row) {
    throw new AppError(
      "EXAM_NOT_FOUND",
      `No exam of ${size} questions${modelKey ? ` made by ${modelKey}` : ""} for this course yet; generate it with POST /v2/courses/${courseId}/generate-exam and {"exam_size": ${size}}`,
    );
  }
  const exam = JSON.parse(row.exam) as { questions: ExamQuestion[] };
  return { id: row.id, model: row.model, exam_size: size, questions: exam.questions };
}
