/**
 * Headings from a PDF's outline (bookmarks): the author's own table of contents, with its nesting
 * as heading levels. Each entry is matched to the line on its target page that carries its title.
 */
import type { PdfDocument } from "./pdf-document.ts";
import type { PdfLine } from "./pdf-layout.ts";

export interface OutlineEntry {
  title: string;
  level: number;
  /** 1-based page the entry points to. */
  page: number;
}

interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items?: OutlineNode[];
}

async function destinationPage(pdf: PdfDocument, dest: OutlineNode["dest"]): Promise<number | null> {
  try {
    const explicit = typeof dest === "string" ? await pdf.getDestination(dest) : dest;
    const target = Array.isArray(explicit) ? explicit[0] : null;
    if (typeof target === "number") return target + 1;
    if (target && typeof target === "object")
      return (await pdf.getPageIndex(target as Parameters<PdfDocument["getPageIndex"]>[0])) + 1;
  } catch {
    // A broken destination only loses its heading.
  }
  return null;
}

/** The outline's entries in order, each with its level (1 outermost) and page; empty without one. */
export async function readOutline(pdf: PdfDocument): Promise<OutlineEntry[]> {
  const outline = (await pdf.getOutline().catch(() => null)) as OutlineNode[] | null;
  const entries: OutlineEntry[] = [];
  const walk = async (nodes: OutlineNode[], depth: number): Promise<void> => {
    for (const node of nodes) {
      const page = await destinationPage(pdf, node.dest);
      const title = node.title.replace(/\s+/g, " ").trim();
      if (page && title) entries.push({ title, level: Math.min(depth + 1, 6), page });
      if (node.items?.length) await walk(node.items, depth + 1);
    }
  };
  await walk(outline ?? [], 0);
  return entries;
}

const NUMBERING_RE = /^\s*((\d+|[A-Z])(\.\d+)*\.?|[IVXLC]+\.)\s+/;
const norm = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
/** A line may carry a little more than the title: its number, "Appendix A". */
const SLACK_CHARS = 20;

function matches(line: string, title: string): boolean {
  const whole = norm(line);
  const bare = norm(line.replace(NUMBERING_RE, ""));
  if (whole === title || bare === title) return true;
  return (
    whole.length <= title.length + SLACK_CHARS &&
    (bare.startsWith(title) || whole.startsWith(title) || whole.endsWith(title))
  );
}

/** Lines a heading starting at `start` wraps over, when its title runs on into the next lines. */
function wrappedLines(lines: PdfLine[], start: number, title: string): number {
  let text = norm(lines[start]!.text.replace(NUMBERING_RE, ""));
  if (text.length < 3 || !title.startsWith(text)) return 0;
  for (let i = start + 1; i < lines.length && i <= start + 3; i++) {
    text += norm(lines[i]!.text);
    if (text === title) return i - start + 1;
    if (!title.startsWith(text)) return 0;
  }
  return 0;
}

/**
 * Marks the lines the outline's entries point at as headings of the entries' levels. Returns how
 * many entries found their line: an outline that matches little text (titles rewritten, pages
 * off) should not replace the other heading cues.
 */
export function applyOutline(entries: OutlineEntry[], pages: PdfLine[][]): number {
  const cursor = new Map<number, number>();
  let found = 0;
  for (const entry of entries) {
    const lines = pages[entry.page - 1];
    if (!lines) continue;
    const title = norm(entry.title);
    if (!title) continue;
    const usable = (l: PdfLine) => !l.role && l.heading === undefined && l.upright;
    const from = cursor.get(entry.page) ?? 0;
    const at = (i: number): number => {
      const l = lines[i]!;
      if (!usable(l)) return 0;
      return matches(l.text, title) ? 1 : wrappedLines(lines, i, title);
    };
    let index = -1;
    let span = 0;
    for (let pass = 0; pass < 2 && index < 0; pass++) {
      for (let i = pass === 0 ? from : 0; i < (pass === 0 ? lines.length : from); i++) {
        span = at(i);
        if (span > 0) {
          index = i;
          break;
        }
      }
    }
    if (index < 0) continue;
    for (let i = index; i < index + span; i++) lines[i]!.heading = entry.level;
    cursor.set(entry.page, index + span);
    found++;
  }
  return found;
}
