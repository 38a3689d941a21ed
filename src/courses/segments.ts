/**
 * The extracted segments (pages, slides, caption blocks, sections) of a course's sources, stored
 * in document order, and the passages an outline is planned from.
 */
import type { Database } from "bun:sqlite";
import { TEACHING_ROLE_LIST } from "../ingest/document.ts";
import type { Segment } from "../ingest/types.ts";
import type { Passage } from "../llm/artefacts.ts";

export interface StoredSegment {
  documentId: string;
  filename: string;
  position: number;
  markdown: string;
  page: number | null;
  heading: string | null;
  /** Enclosing headings of the segment's start; the first is the document's title heading in most papers and books. */
  headingPath: string[];
}

/** Replaces the document's segments (a re-ingest after a crash writes them again). */
export function saveSegments(sqlite: Database, documentId: string, segments: Segment[]): void {
  sqlite.run("DELETE FROM document_segments WHERE document_id = ?", [documentId]);
  const insert = sqlite.query(
    `INSERT INTO document_segments (document_id, position, markdown, page, slide, timestamp_seconds, heading, role, heading_path)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  segments.forEach((s, i) => {
    if (!s.markdown.trim()) return;
    insert.run(
      documentId,
      i,
      s.markdown,
      s.page ?? null,
      s.slide ?? null,
      s.timestamp ?? null,
      s.heading ?? null,
      s.role ?? "body",
      JSON.stringify(s.headingPath ?? []),
    );
  });
}

/** The document's teaching segments in order: front and back matter (references, contents, index…) left out. */
export function segmentsOf(sqlite: Database, documentId: string): StoredSegment[] {
  return sqlite
    .query<
      {
        document_id: string;
        filename: string;
        position: number;
        markdown: string;
        page: number | null;
        slide: number | null;
        heading: string | null;
        heading_path: string;
      },
      [string, string]
    >(
      `SELECT s.document_id, d.filename, s.position, s.markdown, s.page, s.slide, s.heading, s.heading_path
         FROM document_segments s JOIN documents d ON d.id = s.document_id
        WHERE s.document_id = ? AND s.role IN (SELECT value FROM json_each(?)) ORDER BY s.position`,
    )
    .all(documentId, JSON.stringify(TEACHING_ROLE_LIST))
    .map((r) => ({
      documentId: r.document_id,
      filename: r.filename,
      position: r.position,
      markdown: r.markdown,
      page: r.page ?? r.slide,
      heading: r.heading,
      headingPath: JSON.parse(r.heading_path) as string[],
    }));
}

// An outline needs the shape of the sources, not all their text: a bounded, even sample keeps the
// prompt inside the model's context whatever the size of the sources.
export const OUTLINE_PASSAGES = 32;
const PASSAGE_CHARS = 900;

export function toPassage(s: StoredSegment): Passage {
  return {
    id: `${s.documentId}:${s.position}`,
    text: s.markdown.length > PASSAGE_CHARS ? `${s.markdown.slice(0, PASSAGE_CHARS)}…` : s.markdown,
    documentId: s.documentId,
    filename: s.filename,
    page: s.page,
    heading: s.heading,
  };
}

/** An even sample of `segments` in their order, at most `limit` of them. */
export function evenSample<T>(items: T[], limit = OUTLINE_PASSAGES): T[] {
  if (items.length <= limit) return items;
  const step = items.length / limit;
  return Array.from({ length: limit }, (_, i) => items[Math.floor(i * step)]!);
}

/**
 * A segment cut at its markdown headings, so each piece opens with its own heading: a page or
 * slide often starts mid-section, and a truncated passage would lose the headings further down.
 */
export function atHeadings(s: StoredSegment): StoredSegment[] {
  const parts = s.markdown.split(/\n(?=#{1,6}\s)/).filter((p) => p.trim());
  if (parts.length <= 1) return [s];
  return parts.map((markdown, k) => ({ ...s, markdown, position: s.position + k / parts.length }));
}

/**
 * A source's segments with its title heading leading the first one: the title page is not teaching
 * text, but the outline still needs the document's own title.
 */
function withTitle(segments: StoredSegment[]): StoredSegment[] {
  const [first, ...rest] = segments;
  const title = first?.headingPath[0];
  if (!first || !title || first.markdown.includes(title)) return segments;
  return [{ ...first, markdown: `# ${title}\n\n${first.markdown}` }, ...rest];
}

/** Outline passages of sources read one after another, in their order, one per section piece. */
export function sequentialPassages(sources: StoredSegment[][]): Passage[] {
  return evenSample(sources.flatMap(withTitle).flatMap(atHeadings)).map(toPassage);
}

