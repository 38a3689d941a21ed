/** Tesseract's plain text to blocks: its blank-line paragraphs are paragraphs, its lines joined. */
import { type Block, type BlockLocation, block } from "./document.ts";

export function ocrTextToBlocks(text: string, loc: BlockLocation): Block[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((para) =>
      para
        .split("\n")
        .map((line) => line.replace(/\s+/g, " ").trim())
        .filter(Boolean)
        .join("\n"),
    )
    .filter(Boolean)
    .map((p) => block("paragraph", p, loc));
}
