/**
 * Numeric citation markers ("[26]", "[3, 7]", "[12–15]") leave the prose but stay linked: the
 * block's `cites` lists the labels, each of which names a reference entry of the document. Only
 * markers whose every number is a known entry are taken out, so an interval such as "[0, 1]" in a
 * document without such entries stays text.
 */
import type { Block } from "./document.ts";

const MARKER_RE = /\s?\[(\d{1,4}(?:\s*[,;–-]\s*\d{1,4})*)\]/g;
const MAX_RANGE = 50;

function labelsOf(marker: string): string[] {
  const labels: string[] = [];
  for (const part of marker.split(/\s*[,;]\s*/)) {
    const range = /^(\d+)\s*[–-]\s*(\d+)$/.exec(part);
    if (!range) {
      labels.push(part.trim());
      continue;
    }
    const [from, to] = [Number(range[1]), Number(range[2])];
    if (to < from || to - from > MAX_RANGE) return [];
    for (let n = from; n <= to; n++) labels.push(String(n));
  }
  return labels;
}

const CITING_KINDS = new Set<Block["kind"]>(["paragraph", "list_item", "caption", "footnote"]);

export function linkCitations(blocks: Block[]): Block[] {
  const known = new Set(blocks.filter((b) => b.kind === "reference" && b.label).map((b) => b.label!));
  if (known.size === 0) return blocks;
  return blocks.map((b) => {
    if (!CITING_KINDS.has(b.kind) || b.role === "references" || !b.text.includes("[")) return b;
    const cites = new Set(b.cites ?? []);
    const text = b.text.replace(MARKER_RE, (m, inner: string) => {
      const labels = labelsOf(inner);
      if (labels.length === 0 || !labels.every((l) => known.has(l))) return m;
      for (const l of labels) cites.add(l);
      return "";
    });
    if (text === b.text) return b;
    // The markdown as written would bring the markers back; the plain text is rendered instead.
    const { markdown: _markdown, ...rest } = b;
    return { ...rest, text: text.replace(/\s+([.,;:!?)])/g, "$1"), cites: [...cites] };
  });
}
