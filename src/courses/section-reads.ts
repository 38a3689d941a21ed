/**
 * A document's paragraphs and a planned chapter's own sections, read in the extractive engine's
 * thread: reading them means reading the whole document (its chunks, their overlaps and repeated
 * sentences left out), seconds of CPU for a long book, and every chapter of a course from it reads
 * them. The thread keeps the paragraphs of the documents it read last, so a course's plan and its
 * chapters read a long source once; kept by the document's chunks as they stand (a reindex
 * replaces them), so a document indexed again is read again.
 */
import type { Sql } from "../db/sql.ts";
import { documentChunkState } from "../retrieval/index.ts";
import { documentParagraphs, type Paragraph } from "./sections.ts";
import { type ChunkPassage, paragraphPassages } from "./source-passages.ts";
import type { ChapterPart } from "./store.ts";

// Two courses building at once (JOB_CONCURRENCY) each keep their source.
const KEPT = 2;
const kept = new Map<string, Paragraph[]>();

/** The document's paragraphs (sections.ts), kept for the next read. */
export async function paragraphsOf(db: Sql, documentId: string): Promise<Paragraph[]> {
  const state = await documentChunkState(db, documentId);
  // Document ids are random and never reused, so the key needs no database's name.
  const key = `${documentId}\u0000${state?.n}\u0000${state?.last}`;
  const held = kept.get(key);
  if (held) {
    kept.delete(key);
    kept.set(key, held);
    return held;
  }
  const read = await documentParagraphs(db, documentId);
  kept.set(key, read);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
  return read;
}

/** The chapter's own sections, in reading order, as passages cited by their chunks. */
export async function sectionPassages(db: Sql, parts: ChapterPart[]): Promise<ChunkPassage[]> {
  const out: ChunkPassage[] = [];
  for (const part of parts)
    out.push(...paragraphPassages((await paragraphsOf(db, part.document_id)).slice(part.from, part.to)));
  return out;
}
