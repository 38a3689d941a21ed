/**
 * Structure-aware chunking of a document's blocks. Headings and roles split first (a chunk never
 * spans two sections, and carries its section's heading path and role), then blocks, then sentences, then words,
 * packing into chunks of about `targetTokens` (never over `maxTokens`). Consecutive chunks of one
 * section share a sentence or two (`overlapTokens`) so an answer cut at a boundary is still found.
 * Each chunk cites where its text begins: page, slide or video timestamp.
 *
 * A chunk's text is plain text with just enough markdown to keep what a course must show as it
 * is: code fenced (a chapter keeps an example whole or not at all), list items with their bullet
 * or number, table rows as lines of " | " cells; `textParagraphs` (ingest/paragraphs.ts) reads it back.
 */

import { type Block, type BlockRole, FURNITURE_ROLES, headingPaths, markdownToBlocks } from "../ingest/document.ts";
import { splitSentences } from "../ingest/sentences.ts";
import type { ExtractResult } from "../ingest/types.ts";
import { estimateTokens } from "./text.ts";

export interface Chunk {
  text: string;
  page?: number | null;
  slide?: number | null;
  /** Seconds from the start of a video. */
  timestamp?: number | null;
  /** Enclosing headings, outermost first. */
  headingPath: string[];
  /** The role of the blocks it was cut from: body text, or a kind of front/back matter. */
  role: BlockRole;
  /** 0-based order within the document. */
  position: number;
}

export interface ChunkOptions {
  targetTokens?: number;
  maxTokens?: number;
  overlapTokens?: number;
}

interface Location {
  page: number | null;
  slide: number | null;
  timestamp: number | null;
}

/** A piece that is never split further: a paragraph, or a sentence (or line) of a long one. */
interface Unit {
  text: string;
  tokens: number;
  loc: Location;
  /** Units of one block are joined by a space, blocks by a blank line (list items and references by a line break). */
  block: number;
  tight: boolean;
  /** A piece of a code block: fenced, its lines kept. */
  code: boolean;
}

interface Section {
  path: string[];
  role: BlockRole;
  units: Unit[];
}

const DEFAULTS = { targetTokens: 300, maxTokens: 400, overlapTokens: 40 };

/** Splits a paragraph too long for one chunk: lines for tables, lists and code; sentences for prose; words as a last resort. */
function splitLong(text: string, maxTokens: number): string[] {
  const lines = text.split("\n").filter((l) => l.trim());
  const pieces = lines.length > 1 ? lines : splitSentences(text, { newlines: true });
  const out: string[] = [];
  for (const piece of pieces.map((p) => p.trim()).filter(Boolean)) {
    if (estimateTokens(piece) <= maxTokens) {
      out.push(piece);
      continue;
    }
    let words: string[] = [];
    let tokens = 0;
    for (const word of piece.split(/\s+/)) {
      const t = estimateTokens(word);
      if (words.length > 0 && tokens + t > maxTokens) {
        out.push(words.join(" "));
        words = [];
        tokens = 0;
      }
      words.push(word);
      tokens += t;
    }
    if (words.length > 0) out.push(words.join(" "));
  }
  return out;
}

const locationOf = (b: Block): Location => ({
  page: b.page ?? null,
  slide: b.slide ?? null,
  timestamp: b.timestamp ?? null,
});

/** A block's text as a chunk shows it: list items keep their bullet or number, everything else its plain text. */
const unitText = (b: Block, number: number): string =>
  b.kind === "list_item" ? `${"  ".repeat(b.level ?? 0)}${b.ordered ? `${number}.` : "-"} ${b.text}` : b.text;

/** Each numbered list item's number: its place among the items of its list at its level. */
function listNumbers(blocks: Block[]): number[] {
  const counts: number[] = [];
  return blocks.map((b) => {
    if (FURNITURE_ROLES.has(b.role)) return 0;
    if (b.kind !== "list_item") {
      counts.length = 0;
      return 0;
    }
    const level = b.level ?? 0;
    counts.length = level + 1;
    counts[level] = b.ordered ? (counts[level] ?? 0) + 1 : 0;
    return counts[level];
  });
}

/** A code block's lines in pieces of at most `maxTokens` (one over-long line stands alone). */
function codePieces(text: string, maxTokens: number): string[] {
  const out: string[] = [];
  let cur: string[] = [];
  let tokens = 0;
  for (const line of text.split("\n")) {
    const t = estimateTokens(line) + 1;
    if (cur.length > 0 && tokens + t > maxTokens) {
      out.push(cur.join("\n"));
      [cur, tokens] = [[], 0];
    }
    cur.push(line);
    tokens += t;
  }
  if (cur.length > 0) out.push(cur.join("\n"));
  return out;
}

/**
 * Sections (runs of blocks under one heading path, of one role) in reading order; page furniture
 * (running headers, page numbers) is never chunked.
 */
function sectionsOf(blocks: Block[], maxTokens: number): Section[] {
  const sections: Section[] = [];
  const paths = headingPaths(blocks);
  const numbers = listNumbers(blocks);
  let current: Section | null = null;
  blocks.forEach((b, i) => {
    if (FURNITURE_ROLES.has(b.role)) return;
    if (b.kind === "heading") {
      current = null;
      return;
    }
    if (!current || current.role !== b.role) {
      current = { path: paths[i]!, role: b.role, units: [] };
      sections.push(current);
    }
    const code = b.kind === "code";
    const text = code ? b.text.replace(/^\s*\n|\s+$/g, "") : unitText(b, numbers[i]!).trim();
    if (!text.trim()) return;
    const tokens = estimateTokens(text);
    const texts = tokens <= maxTokens ? [text] : code ? codePieces(text, maxTokens) : splitLong(text, maxTokens);
    const tight = b.kind === "list_item" || b.kind === "reference";
    for (const t of texts)
      current.units.push({
        text: t,
        tokens: texts.length === 1 ? tokens : estimateTokens(t),
        loc: locationOf(b),
        block: i,
        tight,
        code,
      });
  });
  return sections;
}

/** A fence longer than any run of backticks in the code. */
const fenceFor = (code: string): string =>
  "`".repeat(Math.max(3, ...(code.match(/`+/g) ?? []).map((r) => r.length + 1)));

function joinUnits(units: Unit[]): string {
  let out = "";
  for (let i = 0; i < units.length; i++) {
    const u = units[i]!;
    const prev = units[i - 1];
    if (prev) out += u.block === prev.block ? (u.code ? "\n" : " ") : u.tight && prev.tight ? "\n" : "\n\n";
    if (!u.code) {
      out += u.text;
      continue;
    }
    // The pieces of one code block in this chunk share one fence.
    let end = i;
    while (units[end + 1]?.code && units[end + 1]!.block === u.block) end++;
    const code = units
      .slice(i, end + 1)
      .map((c) => c.text)
      .join("\n");
    const fence = fenceFor(code);
    out += `${fence}\n${code}\n${fence}`;
    i = end;
  }
  return out;
}

/** The trailing sentences of a chunk that fit in `budget` tokens, as units to start the next chunk. */
function overlapOf(units: Unit[], budget: number): Unit[] {
  const picked: Unit[] = [];
  let used = 0;
  for (let u = units.length - 1; u >= 0; u--) {
    const unit = units[u]!;
    // A piece of code is no sentence to repeat: the overlap stops at it.
    if (unit.code) return picked;
    const sentences = splitSentences(unit.text);
    for (let i = sentences.length - 1; i >= 0; i--) {
      const text = sentences[i]!.trim();
      const tokens = estimateTokens(text);
      // Never the whole chunk again: the overlap is a tail, not a repeat.
      if (used + tokens > budget || (u === 0 && i === 0)) return picked;
      picked.unshift({ text, tokens, loc: unit.loc, block: unit.block, tight: unit.tight, code: false });
      used += tokens;
    }
  }
  return picked;
}

/** Packs a section's units into chunks of nearly equal size, none over maxTokens. */
function packSection(section: Section, o: Required<ChunkOptions>): Unit[][] {
  const total = section.units.reduce((s, u) => s + u.tokens, 0);
  if (total <= o.maxTokens) return [section.units];
  // Equal shares avoid a runt last chunk: 450 tokens become 2 × 225, not 400 + 50.
  const budget = Math.min(o.maxTokens, Math.ceil(total / Math.ceil(total / o.targetTokens)) + o.overlapTokens);
  const chunks: Unit[][] = [];
  let cur: Unit[] = [];
  let curTokens = 0;
  let fresh = 0;
  for (const u of section.units) {
    if (fresh > 0 && curTokens + u.tokens > budget) {
      chunks.push(cur);
      cur = overlapOf(cur, Math.min(o.overlapTokens, o.maxTokens - u.tokens));
      curTokens = cur.reduce((s, x) => s + x.tokens, 0);
      fresh = 0;
    }
    cur.push(u);
    curTokens += u.tokens;
    fresh++;
  }
  if (fresh > 0) chunks.push(cur);
  return chunks;
}

/** Chunks of an extracted document's blocks, in reading order. */
export function chunkDocument(extract: Pick<ExtractResult, "blocks">, opts: ChunkOptions = {}): Chunk[] {
  const o = { ...DEFAULTS, ...opts };
  const chunks: Chunk[] = [];
  for (const section of sectionsOf(extract.blocks, o.maxTokens)) {
    for (const units of packSection(section, o)) {
      const first = units[0]!;
      chunks.push({
        text: joinUnits(units),
        page: first.loc.page,
        slide: first.loc.slide,
        timestamp: first.loc.timestamp,
        headingPath: section.path,
        role: section.role,
        position: chunks.length,
      });
    }
  }
  return chunks;
}

/** Chunks of a markdown text with no pages (a generated chapter). */
export function chunkMarkdown(markdown: string, opts: ChunkOptions = {}): Chunk[] {
  return chunkDocument({ blocks: markdownToBlocks(markdown) }, opts);
}
