/**
 * A PDF's outline (bookmarks): the author's own table of contents, each entry with its nesting
 * level and the page (and height on it) it points to. heading-match places the entries on the pages.
 */
import type { HeadingEntry } from "./heading-match.ts";
import type { PdfDocument } from "./pdf-document.ts";

interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items?: OutlineNode[];
}

type Destination = Pick<HeadingEntry, "page" | "top">;

/** The height an explicit destination scrolls to: /XYZ left top zoom, /FitH top, /FitBH top. */
function destinationTop(explicit: unknown[]): number | undefined {
  const kind = (explicit[1] as { name?: string } | undefined)?.name;
  const top = kind === "XYZ" ? explicit[3] : kind === "FitH" || kind === "FitBH" ? explicit[2] : null;
  return typeof top === "number" ? top : undefined;
}

async function destination(pdf: PdfDocument, dest: OutlineNode["dest"]): Promise<Destination | null> {
  try {
    const explicit = typeof dest === "string" ? await pdf.getDestination(dest) : dest;
    if (!Array.isArray(explicit)) return null;
    const target = explicit[0];
    const top = destinationTop(explicit);
    if (typeof target === "number") return { page: target + 1, top };
    if (target && typeof target === "object")
      return { page: (await pdf.getPageIndex(target as Parameters<PdfDocument["getPageIndex"]>[0])) + 1, top };
  } catch {
    // A broken destination only loses its heading.
  }
  return null;
}

/** The outline's entries in order, each with its level (1 outermost) and destination; empty without one. */
export async function readOutline(pdf: PdfDocument): Promise<HeadingEntry[]> {
  const outline = (await pdf.getOutline().catch(() => null)) as OutlineNode[] | null;
  const entries: HeadingEntry[] = [];
  const walk = async (nodes: OutlineNode[], depth: number): Promise<void> => {
    for (const node of nodes) {
      const dest = await destination(pdf, node.dest);
      const title = (node.title ?? "").replace(/\s+/g, " ").trim();
      if (dest && title) entries.push({ title, level: Math.min(depth + 1, 6), ...dest });
      if (node.items?.length) await walk(node.items, depth + 1);
    }
  };
  await walk(outline ?? [], 0);
  return entries;
}
