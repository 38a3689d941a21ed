/**
 * Passages of a course's sources as a model or the extractive engine reads them: paragraphs of one
 * chunk joined and cited by that chunk, the heading tree of a source, and an even sample over
 * whole sources for planning.
 */
import type { Passage } from "../llm/artefacts.ts";
import type { Paragraph } from "./sections.ts";

// An outline needs the shape of the sources, not all their text: a bounded, even sample keeps the
// prompt inside the model's context whatever the size of the sources.
export const OUTLINE_PASSAGES = 32;

/** An even sample of `items` in their order, at most `limit` of them. */
export function evenSample<T>(items: T[], limit = OUTLINE_PASSAGES): T[] {
  if (items.length <= limit) return items;
  const step = items.length / limit;
  return Array.from({ length: limit }, (_, i) => items[Math.floor(i * step)]!);
}

/** A passage of an indexed document, cited by its chunk. */
export interface ChunkPassage extends Passage {
  chunkId: string;
  timestamp: number | null;
}

/** `k` items spread over `items` from the first to the last, in order. */
export function spreadSample<T>(items: T[], k: number): T[] {
  if (items.length <= k) return items;
  if (k <= 1) return items.slice(0, k);
  return [...new Set(Array.from({ length: k }, (_, i) => Math.round((i * (items.length - 1)) / (k - 1))))].map(
    (i) => items[i]!,
  );
}

/** Consecutive paragraphs of one chunk as one passage, cited by the chunk, in reading order. */
export function paragraphPassages(paragraphs: Paragraph[]): ChunkPassage[] {
  const out: ChunkPassage[] = [];
  for (const p of paragraphs) {
    const last = out.at(-1);
    if (last && last.id === p.chunkId) {
      last.text += `\n\n${p.text}`;
      continue;
    }
    out.push({
      id: p.chunkId,
      chunkId: p.chunkId,
      timestamp: p.timestamp,
      text: p.text,
      documentId: p.documentId,
      filename: p.filename,
      page: p.page,
      heading: p.headingPath.length > 0 ? p.headingPath.join(" > ") : null,
      headingPath: p.headingPath,
    });
  }
  return out;
}

/** A source's headings down to `depth` levels below its top level, indented, in reading order. */
export function headingTree(paragraphs: Paragraph[], topDepth: number, levels = 2): string {
  const lines: string[] = [];
  let prev: string[] = [];
  for (const p of paragraphs) {
    const path = p.headingPath.slice(0, topDepth + levels);
    for (let d = topDepth; d < path.length; d++) {
      if (path.slice(0, d + 1).join("\u0000") !== prev.slice(0, d + 1).join("\u0000")) {
        lines.push(`${"  ".repeat(d - topDepth)}- ${path[d]}`);
      }
    }
    prev = path;
  }
  return lines.join("\n");
}
