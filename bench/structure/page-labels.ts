/**
 * Front and back matter page labels: truth/labels/NAME.json, written by hand from `pdftotext -f N
 * -l N` page text, holds page ranges [from, to, class] for the front (cover, title, copyright,
 * dedication, contents, lists, acknowledgements, about the authors, boilerplate such as notices
 * and authority pages, revision history, blank) and the back (bibliography, index, licence texts,
 * wherever they stand, acknowledgements, revision history, colophon, back cover, blank); every
 * other page is body (a preface, foreword, introduction, abstract, glossary or appendix teaches).
 * `mixed` pages (a contents page that turns into the introduction) are not scored.
 *
 * A page is predicted front/back when most of its extracted characters, page furniture left out,
 * carry a role outside TEACHING_ROLES; a page with no such characters (blank, a lone page number)
 * is not scored.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Block, FURNITURE_ROLES, TEACHING_ROLES } from "../../src/ingest/document.ts";

type Range = [from: number, to: number, cls: string];

export interface PageLabels {
  front: Range[];
  back: Range[];
  mixed: number[];
}

const LABELS_DIR = resolve(import.meta.dir, "truth", "labels");

export async function pageLabels(name: string): Promise<PageLabels | null> {
  const path = join(LABELS_DIR, `${name}.json`);
  return existsSync(path) ? ((await Bun.file(path).json()) as PageLabels) : null;
}

/** The class of a page: "front:contents", "back:index", …, or "body". */
export function truthClass(labels: PageLabels, page: number): string {
  for (const side of ["front", "back"] as const) {
    const hit = labels[side].find(([from, to]) => page >= from && page <= to);
    if (hit) return `${side}:${hit[2]}`;
  }
  return "body";
}

/** Pages (1-based) whose characters are mostly non-teaching: true; mostly teaching: false; none: absent. */
export function predictedPages(blocks: Block[]): Map<number, boolean> {
  const chars = new Map<number, { teaching: number; other: number }>();
  for (const b of blocks) {
    if (b.page == null || FURNITURE_ROLES.has(b.role)) continue;
    const n = b.text.replace(/\s/g, "").length;
    const c = chars.get(b.page) ?? { teaching: 0, other: 0 };
    if (TEACHING_ROLES.has(b.role)) c.teaching += n;
    else c.other += n;
    chars.set(b.page, c);
  }
  const out = new Map<number, boolean>();
  for (const [page, c] of chars) if (c.teaching + c.other > 0) out.set(page, c.other > c.teaching);
  return out;
}

export interface LabelScore {
  scored: number;
  agree: number;
  /** Per truth class ("body", "front:contents", …): pages scored and pages predicted right. */
  classes: Map<string, { pages: number; right: number }>;
}

export const emptyLabelScore = (): LabelScore => ({ scored: 0, agree: 0, classes: new Map() });

export function scoreLabels(blocks: Block[], labels: PageLabels, pages: number, into: LabelScore): LabelScore {
  const predicted = predictedPages(blocks);
  for (let page = 1; page <= pages; page++) {
    const nonTeaching = predicted.get(page);
    if (nonTeaching === undefined || labels.mixed.includes(page)) continue;
    const cls = truthClass(labels, page);
    const right = nonTeaching === (cls !== "body");
    into.scored++;
    if (right) into.agree++;
    const c = into.classes.get(cls) ?? { pages: 0, right: 0 };
    c.pages++;
    if (right) c.right++;
    into.classes.set(cls, c);
  }
  return into;
}
