/**
 * Plain text and markdown files, kept as written apart from normalised line ends and blank lines.
 * The charset is detected (chardet) rather than assumed, so a Windows-1252 or UTF-16 file reads
 * as its author wrote it.
 */
import { detect } from "chardet";
import { block, markdownToBlocks } from "./document.ts";
import { firstHeading, normalizeMarkdown } from "./markdown.ts";
import { resultOf } from "./result.ts";
import type { ExtractResult } from "./types.ts";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Bytes that are valid UTF-8 and hold no NUL (UTF-16 text is full of them) read as UTF-8 without
 * detection: chardet weighs every charset, which cost more than the rest of a short file's parse.
 */
function validUtf8(data: Uint8Array): string | null {
  if (data.includes(0)) return null;
  try {
    return strictUtf8.decode(data);
  } catch {
    return null;
  }
}

/** Decodes bytes in their declared or detected charset; UTF-8 when detection fails or names an unknown one. */
export function decodeText(data: Uint8Array, declared?: string | null): string {
  const utf8 = declared ? null : validUtf8(data);
  if (utf8 !== null) return utf8;
  const candidates = [declared, detect(data), "utf-8"];
  for (const label of candidates) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(data);
    } catch {
      // An encoding TextDecoder does not know: try the next candidate.
    }
  }
  return new TextDecoder().decode(data);
}

export async function extractTextFile(path: string, kind: "txt" | "md"): Promise<ExtractResult> {
  const text = normalizeMarkdown(decodeText(new Uint8Array(await Bun.file(path).arrayBuffer())));
  if (kind === "md") {
    return resultOf(
      markdownToBlocks(text),
      { title: firstHeading(text, 1), mimeType: "text/markdown", pages: 1 },
      "section",
    );
  }
  // Plain text is not markdown: each blank-line paragraph is a paragraph of text, whatever it holds,
  // and the markdown output gives it back as written rather than escaped.
  const paragraphs = text.split(/\n\s*\n/).map((p) => block("paragraph", p.trim(), {}, { markdown: p.trim() }));
  return resultOf(paragraphs, { title: null, mimeType: "text/plain", pages: 1 }, "section");
}
