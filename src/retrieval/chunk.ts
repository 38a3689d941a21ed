/**
 * Structure-aware chunking of extracted markdown. Headings split first (a chunk never spans two
 * sections, and carries its section's heading path), then paragraphs, then sentences, then words,
 * packing into chunks of about `targetTokens` (never over `maxTokens`). Consecutive chunks of one
 * section share a sentence or two (`overlapTokens`) so an answer cut at a boundary is still found.
 * Each chunk cites where its text begins: page, slide or video timestamp.
 */
import sbd from "sbd";
import type { ExtractResult, Segment } from "../ingest/types.ts";
import { estimateTokens } from "./text.ts";

export interface Chunk {
  text: string;
  page?: number | null;
  slide?: number | null;
  /** Seconds from the start of a video. */
  timestamp?: number | null;
  /** Enclosing headings, outermost first. */
  headingPath: string[];
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
  /** Units of one paragraph are joined by a space, paragraphs by a blank line. */
  block: number;
}

interface Section {
  path: string[];
  units: Unit[];
}

const DEFAULTS = { targetTokens: 300, maxTokens: 400, overlapTokens: 40 };

const ATX_RE = /^ {0,3}(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/;
const FENCE_RE = /^ {0,3}(```|~~~)/;
const SETEXT_RE = /^ {0,3}(=+|-+)[ \t]*$/;

type Block = { kind: "heading"; level: number; text: string } | { kind: "text"; text: string };

/** Headings and paragraphs of one segment; fenced code stays one block, blank lines separate paragraphs. */
function blocksOf(markdown: string): Block[] {
  const out: Block[] = [];
  let para: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    const text = para.join("\n").trim();
    if (text) out.push({ kind: "text", text });
    para = [];
  };
  for (const line of markdown.replace(/\r\n?/g, "\n").split("\n")) {
    const f = FENCE_RE.exec(line);
    if (fence !== null) {
      para.push(line);
      if (f && f[1] === fence) {
        fence = null;
        flush();
      }
      continue;
    }
    if (f) {
      flush();
      fence = f[1]!;
      para.push(line);
      continue;
    }
    const atx = ATX_RE.exec(line);
    if (atx) {
      flush();
      out.push({ kind: "heading", level: atx[1]!.length, text: cleanHeading(atx[2]!) });
      continue;
    }
    const setext = SETEXT_RE.exec(line);
    if (setext && para.length === 1 && !para[0]!.startsWith("|")) {
      out.push({ kind: "heading", level: setext[1]!.startsWith("=") ? 1 : 2, text: cleanHeading(para[0]!) });
      para = [];
      continue;
    }
    if (line.trim() === "") flush();
    else para.push(line);
  }
  flush();
  return out;
}

const cleanHeading = (s: string) =>
  s
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`]+/g, "")
    .trim();

/** Splits a paragraph too long for one chunk: lines for tables, lists and code; sentences for prose; words as a last resort. */
function splitLong(text: string, maxTokens: number): string[] {
  const lines = text.split("\n").filter((l) => l.trim());
  const pieces = lines.length > 1 ? lines : sbd.sentences(text, { newline_boundaries: true, preserve_whitespace: false });
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

function locationOf(seg: Segment): Location {
  return { page: seg.page ?? null, slide: seg.slide ?? null, timestamp: seg.timestamp ?? null };
}

/** Sections (runs of paragraphs under one heading path) across all segments, in reading order. */
function sectionsOf(segments: Segment[], maxTokens: number): Section[] {
  const sections: Section[] = [];
  let stack: { level: number; text: string }[] = [];
  let current: Section | null = null;
  let block = 0;
  const pathOf = () => stack.map((h) => h.text);
  for (const seg of segments) {
    const blocks = blocksOf(seg.markdown);
    const loc = locationOf(seg);
    // A segment heading the markdown does not repeat (a slide title, a section name) roots the path.
    const segHeading = seg.heading?.trim();
    if (segHeading && !blocks.some((b) => b.kind === "heading" && b.text === segHeading)) {
      stack = [{ level: 0, text: segHeading }];
      current = null;
    }
    for (const b of blocks) {
      if (b.kind === "heading") {
        while (stack.length > 0 && stack[stack.length - 1]!.level >= b.level) stack.pop();
        stack.push({ level: b.level, text: b.text });
        current = null;
        continue;
      }
      if (!current) {
        current = { path: pathOf(), units: [] };
        sections.push(current);
      }
      block++;
      const tokens = estimateTokens(b.text);
      const texts = tokens <= maxTokens ? [b.text] : splitLong(b.text, maxTokens);
      for (const text of texts) current.units.push({ text, tokens: texts.length === 1 ? tokens : estimateTokens(text), loc, block });
    }
  }
  return sections;
}

function joinUnits(units: Unit[]): string {
  let out = "";
  for (let i = 0; i < units.length; i++) {
    const u = units[i]!;
    if (i > 0) out += u.block === units[i - 1]!.block ? " " : "\n\n";
    out += u.text;
  }
  return out;
}

/** The trailing sentences of a chunk that fit in `budget` tokens, as units to start the next chunk. */
function overlapOf(units: Unit[], budget: number): Unit[] {
  const picked: Unit[] = [];
  let used = 0;
  for (let u = units.length - 1; u >= 0; u--) {
    const unit = units[u]!;
    const sentences = sbd.sentences(unit.text, { preserve_whitespace: false });
    for (let i = sentences.length - 1; i >= 0; i--) {
      const text = sentences[i]!.trim();
      const tokens = estimateTokens(text);
      // Never the whole chunk again: the overlap is a tail, not a repeat.
      if (used + tokens > budget || (u === 0 && i === 0)) return picked;
      picked.unshift({ text, tokens, loc: unit.loc, block: unit.block });
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

/** Chunks of an extracted document, in reading order. */
export function chunkDocument(extract: Pick<ExtractResult, "segments" | "markdown">, opts: ChunkOptions = {}): Chunk[] {
  const o = { ...DEFAULTS, ...opts };
  const segments = extract.segments.length > 0 ? extract.segments : [{ markdown: extract.markdown }];
  const chunks: Chunk[] = [];
  for (const section of sectionsOf(segments, o.maxTokens)) {
    for (const units of packSection(section, o)) {
      const first = units[0]!;
      chunks.push({
        text: joinUnits(units),
        page: first.loc.page,
        slide: first.loc.slide,
        timestamp: first.loc.timestamp,
        headingPath: section.path,
        position: chunks.length,
      });
    }
  }
  return chunks;
}

/** Chunks of a markdown text with no pages (a generated chapter). */
export function chunkMarkdown(markdown: string, opts: ChunkOptions = {}): Chunk[] {
  return chunkDocument({ markdown, segments: [{ markdown }] }, opts);
}
