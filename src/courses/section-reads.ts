/**
 * A document's paragraphs and a planned chapter's own sections, read in the extractive engine's
 * thread: reading them means reading the whole document (its chunks, their overlaps and repeated
 * sentences left out), seconds of CPU for a long book, and every chapter of a course from it reads
 * them. The thread keeps the paragraphs of the documents it read last, so a course's plan and its
 * chapters read a long source once; kept by the document's chunks as they stand (a reindex
 * replaces them), so a document indexed again is read again.
 */
import type { Database } from "bun:sqlite";
import { documentChunkState } from "../retrieval/index.ts";
import { documentParagraphs, type Paragraph } from "./sections.ts";
import { type ChunkPassage, paragraphPassages } from "./source-passages.ts";
import type { ChapterPart } from "./store.ts";

// Two courses building at once (JOB_CONCURRENCY) each keep their source.
const KEPT = 2;
const kept = new Map<string, Paragraph[]>();

/** The document's paragraphs (sections.ts), kept for the next read. */
export function paragraphsOf(sqlite: Database, documentId: string): Paragraph[] {
  const state = documentChunkState(sqlite, documentId);
  const key = `${sqlite.filename}\u0000${documentId}\u0000${state?.n}\u0000${state?.last}`;
  const held = kept.get(key);
  if (held) {
    kept.delete(key);
    kept.set(key, held);
    return held;
  }
  const read = documentParagraphs(sqlite, documentId);
  kept.set(key, read);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
  return read;
}

/** The chapter's own sections, in reading order, as passages cited by their chunks. */
export const sectionPassages = (sqlite: Database, parts: ChapterPart[]): ChunkPassage[] =>
  parts.flatMap((part) => paragraphPassages(paragraphsOf(sqlite, part.document_id).slice(part.from, part.to)));
