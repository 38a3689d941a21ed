/**
 * Text a document repeats: concatenated copies of a handbook, an appendix pasted twice, a slide deck
 * duplicated. Recognised by the text itself, not by titles: each chunk of teaching text (its overlap
 * with the chunk before it left out) is cut into shingles, runs of SHINGLE_WORDS normalised words,
 * and a chunk is a repeat when most of its shingles occurred earlier in the document. Found once
 * at ingest and stored with the document: courses plan without the repeats, and the document's
 * details name them.
 */
import { readOnlySql } from "../db/read-only.ts";
import type { Sql } from "../db/sql.ts";
import { type BlockRole, TEACHING_ROLE_LIST, TEACHING_ROLES } from "../ingest/document.ts";
import type { DocumentRepeats, RepeatedRun } from "../ingest/types.ts";
import { documentChunkBatches } from "../retrieval/chunk-reads.ts";
import type { Calls } from "../thread-calls.ts";
import { withoutOverlap } from "./chunk-overlap.ts";
import { ShingleIndex } from "./shingle-index.ts";

// Eight words in a row are rarely shared by chance, yet a copy with a reworded sentence still
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

const wordsIn = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Murmur3's finaliser: every bit of the result depends on every bit of `h`. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The hashed shingles of a text; a text shorter than one shingle is one shingle of its own. Each
 * word is hashed once and a shingle's hash combined from its words' (no string per shingle: those
 * were most of the garbage a 50 MB text made, ~50 bytes for each of its 8 M words).
 */
function shingles(words: string[]): number[] {
  if (words.length === 0) return [];
  const hashes = words.map((w) => Bun.hash.xxHash32(w));
  const out: number[] = [];
  for (let i = 0; i === 0 || i + SHINGLE_WORDS <= words.length; i++) {
    let h = SHINGLE_WORDS;
    for (let j = i; j < Math.min(i + SHINGLE_WORDS, words.length); j++)
      h = Math.imul(h ^ hashes[j]!, 0x9e3779b1) ^ (h >>> 15);
    out.push(mix(h));
  }
  return out;
}

/** The most common value of a non-empty list. */
function mode(values: number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].reduce((best, e) => (e[1] > best[1] ? e : best))[0];
}

/**
 * Reads a document's teaching units one at a time, in reading order, and keeps only what a repeat
 * found later must name (each unit's heading path and page), not their text. A run of repeated
 * chunks goes on while the text it repeats goes forward: a third copy after a second is a run of its own.
 */
class RepeatFinder {
  readonly result: DocumentRepeats = { words: 0, repeated_words: 0, runs: [], chunk_ids: [] };
  private readonly firstIn = new ShingleIndex();
  private readonly places: Pick<RepeatUnit, "headingPath" | "page">[] = [];
  private run: { shown: RepeatedRun; source: number } | null = null;

  add(u: RepeatUnit): void {
    const i = this.places.length;
    this.places.push({ headingPath: u.headingPath, page: u.page });
    const words = wordsIn(u.text);
    const own = shingles(words);
    this.result.words += words.length;
    const earlier = own.map((h) => this.firstIn.get(h)).filter((at): at is number => at !== undefined);
    const repeated = own.length > 0 && earlier.length / own.length > REPEAT_SHARE;
    for (const h of own) this.firstIn.add(h, i);
    if (!repeated) {
      if (words.length > 0) this.run = null;
      return;
    }
    this.result.chunk_ids.push(u.id);
    this.result.repeated_words += words.length;
    const source = mode(earlier);
    if (this.run && source >= this.run.source) {
      this.run.shown.words += words.length;
      this.run.shown.last_page = u.page ?? this.run.shown.last_page;
      this.run.source = source;
      return;
    }
    const first = this.places[source]!;
    this.run = {
      source,
      shown: {
        heading_path: u.headingPath,
        page: u.page,
        last_page: u.page,
        words: words.length,
        first_seen: { heading_path: first.headingPath, page: first.page },
      },
    };
    this.result.runs.push(this.run.shown);
  }
}

/** The repeats among `units` (a document's teaching chunks in reading order). */
export function findRepeats(units: RepeatUnit[]): DocumentRepeats {
  // A first chunk repeats nothing: one alone (a short document) needs only its words counted.
  if (units.length === 1) return { words: wordsIn(units[0]!.text).length, repeated_words: 0, runs: [], chunk_ids: [] };
  const finder = new RepeatFinder();
  for (const u of units) finder.add(u);
  return finder.result;
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

/**
 * Turns stored chunks, given in reading order, into units: teaching roles only, each overlap with
 * the chunk before read once, consecutive chunks of one section sharing one parsed heading path.
 */
function unitsOf(): (c: StoredChunk) => RepeatUnit | null {
  let prev: { path: string; text: string; headingPath: string[] } | null = null;
  return (c) => {
    if (!TEACHING_ROLES.has(c.role)) return null;
    const sameSection = prev?.path === c.heading_path;
    const text = withoutOverlap(sameSection ? prev!.text : null, c.text);
    const headingPath = sameSection ? prev!.headingPath : (JSON.parse(c.heading_path) as string[]);
    prev = { path: c.heading_path, text: c.text, headingPath };
    return { id: c.id, text, headingPath, page: c.page ?? c.slide };
  };
}

/** The repeats among a document's chunks in reading order; only those of teaching roles are read. */
export function repeatsOfChunks(chunks: Iterable<StoredChunk>): DocumentRepeats {
  const toUnit = unitsOf();
  const units: RepeatUnit[] = [];
  for (const c of chunks) {
    const unit = toUnit(c);
    if (unit) units.push(unit);
  }
  return findRepeats(units);
}

/** Chunks read from the database at a time: a few hundred KB of text, however long the document. */
const READ_BATCH = 256;
/**
 * Text read between two garbage collections. Each chunk's words are short-lived strings, yet JSC
 * let them pile up: a 50 MB text took the detector's thread (in the server's process) ~520 MB
 * past what it holds (the shingle index, ~130 MB), ~90 MB with a collection every 4 MB read.
 */
const COLLECT_EVERY_CHARS = 4 * 1024 * 1024;

/** The repeats of an indexed document, read from its stored teaching chunks a batch at a time. */
export async function detectRepeats(db: Sql, documentId: string): Promise<DocumentRepeats> {
  const toUnit = unitsOf();
  const finder = new RepeatFinder();
  let chars = 0;
  for await (const batch of documentChunkBatches(db, documentId, TEACHING_ROLE_LIST, READ_BATCH)) {
    for (const c of batch) {
      const unit = toUnit(c);
      if (unit) finder.add(unit);
      chars += c.text.length;
    }
    if (chars >= COLLECT_EVERY_CHARS) {
      Bun.gc(true);
      chars = 0;
    }
  }
  return finder.result;
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

/** A long document's repeats, found in the extractive engine's thread (src/engine-thread.ts) on its own read-only connection. */
export const DOCUMENT_WORK = {
  documentRepeats: (input: { database: string; documentId: string }) =>
    detectRepeats(readOnlySql(input.database), input.documentId),
};

/** Ingest's calls into the engine's thread. */
export type DocumentThread = Calls<typeof DOCUMENT_WORK>;
