/** Tesseract's plain text to markdown: its blank-line paragraphs kept, its line breaks kept. */
export function ocrTextToMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((para) =>
      para
        .split("\n")
        .map((line) => line.replace(/\s+/g, " ").trim())
        .filter(Boolean)
        // Recognised text is prose: a leading "#" or ">" must not turn into markdown syntax.
        .map((line) => line.replace(/^([#>])/, "\\$1"))
        .join("\n"),
    )
    .filter(Boolean)
    .join("\n\n");
}
