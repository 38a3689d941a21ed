/**
 * Which cached deck or exam a learner works on: the course's newest (materials owns the finders),
 * or the one a model_key names. Each is cached per model.
 */
import type { Sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import type { ExamQuestion } from "../llm/artefacts.ts";
import { canonicalModel } from "../llm/providers/transport.ts";
import { findExam } from "../materials/exam.ts";
import { findDeck, type StoredDeck } from "../materials/flashcards.ts";

export interface StoredExam {
  id: string;
  model: string;
  exam_size: number;
  questions: ExamQuestion[];
}

const modelOf = (modelKey?: string) => (modelKey ? canonicalModel(modelKey.trim()) : null);

export async function courseDeck(db: Sql, courseId: string, modelKey?: string): Promise<StoredDeck> {
  const deck = await findDeck(db, courseId, modelOf(modelKey));
  if (deck) return deck;
  throw new AppError(
    "FLASHCARDS_NOT_FOUND",
    `No flashcard deck${modelKey ? ` made by ${modelKey}` : ""} for this course yet; generate it with POST /v2/courses/${courseId}/generate-flashcards`,
  );
}

/** The cached exam of `size` questions (the newest, or the one of `modelKey`); 404 when there is none. */
export async function courseExam(db: Sql, courseId: string, size: number, modelKey?: string): Promise<StoredExam> {
  const found = await findExam(db, courseId, { size, model: modelOf(modelKey) });
  if (!found) {
    throw new AppError(
      "EXAM_NOT_FOUND",
      `No exam of ${size} questions${modelKey ? ` made by ${modelKey}` : ""} for this course yet; generate it with POST /v2/courses/${courseId}/generate-exam and {"exam_size": ${size}}`,
    );
  }
  return { id: found.id, model: found.model, exam_size: size, questions: found.exam.questions };
}
