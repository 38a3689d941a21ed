/** Markdown helpers shared by the extractors: normalising, joining and splitting by heading. */
import type { ExtractResult, Segment } from "./types.ts";

/** LF line ends, no BOM, plain spaces, no trailing spaces, at most one blank line in a row, trimmed. */
export function normalizeMarkdown(text: string): string {
  return text
    .replace(/^\uFEFF/, "")
    .replace(/\u00a0/g, " ")
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function joinSegments(segments: Segment[]): string {
  return segments
    .map((s) => s.markdown)
    .filter((m) => m.length > 0)
    .join("\n\n");
}

/** Builds the result from its segments, so `markdown` is always exactly their join. */
export function resultOf(
  segments: Segment[],
  meta: { title: string | null; mimeType: string; pages: number | null },
): ExtractResult {
  const kept = segments.filter((s) => s.markdown.trim().length > 0);
  return { ...meta, segments: kept, markdown: joinSegments(kept) };
}

const HEADING_RE = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

/** The first ATX heading's text, if any. */
export function firstHeading(markdown: string, maxLevel = 6): string | null {
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const m = !inFence && HEADING_RE.exec(line);
    if (m && m[1]!.length <= maxLevel) return m[2]!.trim();
  }
  return null;
}

/**
 * Splits markdown into sections at headings of level 1-3 (outside code fences), each segment
 * carrying its heading, so a chunk from a long DOCX can cite the section it came from.
 */
export function sectionsByHeading(markdown: string): Segment[] {
  const sections: Segment[] = [];
  let heading: string | null = null;
  let lines: string[] = [];
  let inFence = false;
  const flush = () => {
    const text = lines.join("\n").trim();
    if (text) sections.push({ markdown: text, heading });
  };
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const m = inFence ? null : HEADING_RE.exec(line);
    if (m && m[1]!.length <= 3) {
      flush();
      heading = m[2]!.trim();
      lines = [line];
    } else {
      lines.push(line);
    }
  }
  flush();
  return sections;
}
