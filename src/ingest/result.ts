/**
 * Finishing an extraction: every extractor hands its blocks here, which cleans their text, gives
 * each block its role, and derives the markdown and segments from the one model.
 */
import { cleanBlocks } from "./clean-text.ts";
import {
  type Block,
  blocksToMarkdown,
  FURNITURE_ROLES,
  headingPaths,
  markdownToBlocks,
  namesSomething,
} from "./document.ts";
import { assignRoles } from "./roles.ts";
import type { ExtractResult, Segment } from "./types.ts";

/** How a document is cut into segments: by page (PDF, images), slide, heading section, or caption paragraph. */
export type SegmentBy = "page" | "slide" | "section" | "timestamp";

/** A heading this shallow opens a new section segment. */
const SECTION_LEVEL = 3;

function opensSegment(prev: Block, b: Block, by: SegmentBy): boolean {
  if (b.role !== prev.role) return true;
  switch (by) {
    case "page":
      return (b.page ?? null) !== (prev.page ?? null);
    case "slide":
      return (b.slide ?? null) !== (prev.slide ?? null);
    case "timestamp":
      return true;
    case "section":
      return b.kind === "heading" && (b.level ?? 1) <= SECTION_LEVEL;
  }
}

/** Segments of the blocks (page furniture left out), each with the heading path where it starts. */
export function segmentsOf(blocks: Block[], by: SegmentBy): Segment[] {
  const paths = headingPaths(blocks);
  const segments: Segment[] = [];
  let run: Block[] = [];
  let start = 0;
  const flush = () => {
    if (run.length === 0) return;
    const first = run[0]!;
    const path = paths[start]!;
    const markdown = blocksToMarkdown(run);
    if (markdown) {
      segments.push({
        markdown,
        page: first.page ?? null,
        slide: first.slide ?? null,
        timestamp: first.timestamp ?? null,
        heading: path[path.length - 1] ?? null,
        headingPath: path,
        role: first.role,
      });
    }
    run = [];
  };
  blocks.forEach((b, i) => {
    if (FURNITURE_ROLES.has(b.role)) return;
    if (run.length > 0 && opensSegment(run[run.length - 1]!, b, by)) flush();
    if (run.length === 0) start = i;
    run.push(b);
  });
  flush();
  return segments;
}

/** A markdown text as an extraction result (markdown files, and generated text indexed like a document). */
export function resultOfMarkdown(
  markdown: string,
  meta: { title: string | null; mimeType?: string; pages?: number | null },
): ExtractResult {
  return resultOf(markdownToBlocks(markdown), { mimeType: "text/markdown", pages: 1, ...meta }, "section");
}

/**
 * A heading must name something: one with no word in it (a UUID, a hash, a bare number or symbol
 * that a style or a font size made big) is a paragraph.
 */
const IDENTIFIER_RE = /^[\p{N}\p{P}\p{S}\s]*$|^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$|^[0-9a-f]{16,}$/iu;
const asParagraphIfNoWords = (b: Block): Block =>
  b.kind === "heading" && (IDENTIFIER_RE.test(b.text.trim()) || !namesSomething(b.text))
    ? { ...b, kind: "paragraph", level: undefined }
    : b;

/** The extraction result of a document's blocks: cleaned, roles assigned, markdown and segments derived. */
export function resultOf(
  raw: Block[],
  meta: { title: string | null; mimeType: string; pages: number | null },
  by: SegmentBy,
): ExtractResult {
  const blocks = assignRoles(cleanBlocks(raw.filter((b) => b.text.trim().length > 0).map(asParagraphIfNoWords)));
  return {
    ...meta,
    blocks,
    markdown: blocksToMarkdown(blocks, { roleComments: true }),
    segments: segmentsOf(blocks, by),
  };
}
