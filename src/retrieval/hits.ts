/** A search's hits from its chunk rows, the same on both engines (SQLite's search.ts, PostgreSQL's postgres-search.ts). */
import type { BlockRole } from "../ingest/document.ts";
import type { Ranked } from "./fusion.ts";

export interface Hit {
  chunkId: string;
  documentId: string | null;
  chapterId: string | null;
  courseId: string | null;
  filename: string | null;
  text: string;
  /** Cosine similarity of query and chunk under the active embedder. */
  score: number;
  page: number | null;
  slide: number | null;
  timestamp: number | null;
  headingPath: string[];
  role: BlockRole;
  position: number;
}

/** The columns of a chunk (and its document's filename) that a hit shows. */
export interface HitRow {
  seq: number;
  id: string;
  document_id: string | null;
  chapter_id: string | null;
  course_id: string | null;
  filename: string | null;
  text: string;
  context: string;
  heading_path: string;
  role: BlockRole;
  page: number | null;
  slide: number | null;
  timestamp_seconds: number | null;
  position: number;
}

/** The fused order's chunks as hits, each scored by its cosine similarity; a chunk gone since it was ranked is left out. */
export function hitsOf(top: Ranked[], rows: Map<number, HitRow>, similarity: (seq: number) => number): Hit[] {
  return top.flatMap((r) => {
    const row = rows.get(r.seq);
    if (!row) return [];
    return [
      {
        chunkId: row.id,
        documentId: row.document_id,
        chapterId: row.chapter_id,
        courseId: row.course_id,
        filename: row.filename,
        text: row.text,
        score: Math.round(similarity(r.seq) * 1e6) / 1e6,
        page: row.page,
        slide: row.slide,
        timestamp: row.timestamp_seconds,
        headingPath: JSON.parse(row.heading_path) as string[],
        role: row.role,
        position: row.position,
      },
    ];
  });
}
