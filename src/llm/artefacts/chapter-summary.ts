/**
 * What the material generators (guide, notes, flashcards, exam) read of a finished course, for the
 * model path and the extractive engine alike: a types-only module, so the engine does not import
 * the artefact functions that load it.
 */
import type { McqQuestion } from "../schemas.ts";

/** A passage a chapter was written from, so a question can cite the page its sentence is on. */
export interface SourceRef {
  text: string;
  filename: string | null;
  page: number | null;
}

/** A finished chapter as the material generators see it. */
export interface ChapterSummary {
  title: string;
  content: string;
  key_concepts: string[];
  /** The passages it cites, when known. */
  sources?: SourceRef[];
  /** Its quiz, which an exam must not repeat. */
  quiz?: McqQuestion[];
}

export type NotesGoal = "exams" | "interviews" | "practical";
export type NotesStyle = "clear_structured" | "narrative" | "concise";
export type TutorTone = "professor" | "mentor" | "peer";
