/**
 * Text a document repeats: concatenated copies of a handbook, an appendix pasted twice, a slide deck
 * duplicated. Recognised by the text itself, not by titles: each chunk of teaching text (its overlap
 * with the chunk before it left out) is cut into shingles, runs of SHINGLE_WORDS normalised words,
 * and a chunk is a repeat when most of its shingles occurred earlier in the document. Found once
 * at ingest and stored with the document: courses plan without the repeats, and the document's
 * details name them.
 */
import type { Sql } from "../db/sql.ts";
import { type BlockRole, TEACHING_ROLE_LIST, TEACHING_ROLES } from "../ingest/document.ts";
import { documentChunks } from "../retrieval/chunk-reads.ts";
import { withoutOverlap } from "./chunk-overlap.ts";

// Five words in a row are rarely shared by chance, yet a copy with a reworded sentence still
// shares most of them.
const SHINGLE_WORDS = 8;
// "Most": a chunk that merely quotes a sentence or shares a table header is not a repeat.
const REPEAT_SHARE = 0.8;

/** A chunk as the detector reads it. */
export interface RepeatUnit {
  id: string;
  text: string;
  headingPath: string[];
  page: number | null;
}

/** A run of consecutive repeated chunks, and where its text first occurred. */
export interface RepeatedRun {
  heading_path: string[];
  page: number | null;
  last_page: number | null;
  words: number;
  first_seen: { heading_path: string[]; page: number | null };
}

export interface DocumentRepeats {
  /** Words of teaching text, repeats included. */
  words: number;
  repeated_words: number;
  runs: RepeatedRun[];
  /** The repeated chunks, left out of planning. */
  chunk_ids: string[];
}

const wordsIn = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The hashed shingles of a text; a text shorter than one shingle is one shingle of its own. */
function shingles(words: string[]): number[] {
  if (words.length === 0) return [];
  if (words.length < SHINGLE_WORDS) return [Bun.hash.xxHash32(words.join(" "))];
  const out: number[] = [];
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++)
    out.push(Bun.hash.xxHash32(words.slice(i, i + SHINGLE_WORDS).join(" ")));
  return out;
}

/** The most common value of a non-empty list. */
function mode(values: number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].reduce((best, e) => (e[1] > best[1] ? e : best))[0];
}

/**
 * The repeats among `units` (a document's teaching chunks in reading order). A run of repeated
 * chunks goes on while the text it repeats goes forward: a third copy after a second is a run of its own.
 */
export function findRepeats(units: RepeatUnit[]): DocumentRepeats {
  const result: DocumentRepeats = { words: 0, repeated_words: 0, runs: [], chunk_ids: [] };
  // A first chunk repeats nothing: one alone (a short document) needs only its words counted.
  if (units.length === 1) {
    result.words = wordsIn(units[0]!.text).length;
    return result;
  }
  // Shingle → the unit it first occurred in.
  const firstIn = new Map<number, number>();
  let run: { shown: RepeatedRun; source: number } | null = null;
  units.forEach((u, i) => {
    const words = wordsIn(u.text);
    const own = shingles(words);
    result.words += words.length;
    const earlier = own.map((h) => firstIn.get(h)).filter((at): at is number => at !== undefined);
    const repeated = own.length > 0 && earlier.length / own.length > REPEAT_SHARE;
    for (const h of own) if (!firstIn.has(h)) firstIn.set(h, i);
    if (!repeated) {
      if (words.length > 0) run = null;
      return;
    }
    result.chunk_ids.push(u.id);
    result.repeated_words += words.length;
    const source = mode(earlier);
    if (run && source >= run.source) {
      run.shown.words += words.length;
      run.shown.last_page = u.page ?? run.shown.last_page;
      run.source = source;
      return;
    }
    const first = units[source]!;
    run = {
      source,
      shown: {
        heading_path: u.headingPath,
        page: u.page,
        last_page: u.page,
        words: words.length,
        first_seen: { heading_path: first.headingPath, page: first.page },
      },
    };
    result.runs.push(run.shown);
  });
  return result;
}

/** A document's chunk as stored (its heading path as JSON), or as just written. */
export interface StoredChunk {
  id: string;
  text: string;
  heading_path: string;
  page: number | null;
  slide: number | null;
  role: BlockRole;
}

/**
 * Chunks a document may have and still have its repeats found where its chunks are at hand (the
 * process that wrote them, or the server's thread): a few milliseconds. A longer document's are
 * found in the extractive engine's thread, as they read the whole text.
 */
export const REPEATS_NEARBY_CHUNKS = 8;

/** The repeats among a document's chunks in reading order; only those of teaching roles are read. */
export function repeatsOfChunks(chunks: Iterable<StoredChunk>): DocumentRepeats {
  let prev: { path: string; text: string } | null = null;
  const units: RepeatUnit[] = [];
  for (const c of chunks) {
    if (!TEACHING_ROLES.has(c.role)) continue;
    const text = withoutOverlap(prev?.path === c.heading_path ? prev.text : null, c.text);
    prev = { path: c.heading_path, text: c.text };
    units.push({ id: c.id, text, headingPath: JSON.parse(c.heading_path) as string[], page: c.page ?? c.slide });
  }
  return findRepeats(units);
}

/** The repeats of an indexed document, read from its stored teaching chunks. */
export async function detectRepeats(db: Sql, documentId: string): Promise<DocumentRepeats> {
  return repeatsOfChunks(await documentChunks(db, documentId, TEACHING_ROLE_LIST));
}

/** What is stored for the document's details: everything but the chunk ids. */
export type RepeatSummary = Omit<DocumentRepeats, "chunk_ids">;

// A document's details stay small whatever it repeats; the count says how many more there are.
const MAX_RUNS_SHOWN = 50;

/** The document's `details`: its teaching words, the words it repeats, and where. */
export function documentDetails(summary: RepeatSummary) {
  return {
    words: summary.words,
    repeated_words: summary.repeated_words,
    repeated_section_count: summary.runs.length,
    repeated_sections: summary.runs.slice(0, MAX_RUNS_SHOWN),
  };
}
