/**
 * A text's paragraphs, as chunk text and extracted markdown write them: blank-line separated,
 * except a fenced code block, which stays one paragraph with its blank lines.
 */
export function textParagraphs(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  let cur: string[] = [];
  const flush = () => {
    const para = cur.join("\n").trim();
    if (para) out.push(para);
    cur = [];
  };
  for (const line of text.split("\n")) {
    if (fence) {
      cur.push(line);
      if (line.trim() === fence) {
        fence = null;
        flush();
      }
      continue;
    }
    const open = /^(`{3,}|~{3,})[\w+#-]*\s*$/.exec(line.trim());
    if (open) {
      flush();
      fence = open[1]!;
      cur.push(line);
    } else if (line.trim()) cur.push(line);
    else flush();
  }
  flush();
  return out;
}
