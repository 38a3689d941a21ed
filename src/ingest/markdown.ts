/** Markdown helpers shared by the extractors: normalising, and the first heading of a text. */

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
