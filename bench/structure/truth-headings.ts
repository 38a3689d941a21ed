/**
 * Heading truth read from each document by another route than ingest:
 *   - PDF with an outline: poppler's `pdftohtml -xml` outline (title, nesting level, destination
 *     page). Entries are dropped from the truth when they are not heading-like (more than 15 words,
 *     cut off with "…", or a sentence of 8+ words: nist-sp800-37r2 bookmarks whole paragraphs and
 *     "Quick link to summary table …") or when their title is printed neither on their destination
 *     page nor the next (a bookmark to a figure or a page break): nothing on the page to detect.
 *   - A DEV book copied without its outline (strip-outline.ts): the original's outline, as above.
 *   - PDF without an outline: its printed contents page, transcribed by hand into
 *     truth/contents/NAME.json (title, PDF page, level).
 *   - DOCX: paragraphs whose style (through styles.xml) is named "heading N", with text.
 *   - HTML: <h1>-<h4> with text; for the corpus's readability pages, of readability's expected
 *     article (expected.html beside source.html), since the page around the article is not the document.
 * Short papers and forms with neither outline nor contents page (tracemonkey, dpr, redp5110, the
 * invoice and the scan) have no heading truth: they count for page labels only.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { DOMParser, parseHTML } from "linkedom";
import type { BenchDocument } from "./documents.ts";
import { headingLike, normText, normTitle } from "./titles.ts";

export interface TruthHeading {
  title: string;
  level: number;
  /** PDF page (1-based); null for DOCX and HTML. */
  page: number | null;
}

export interface HeadingTruth {
  from: "outline" | "original's outline" | "contents page" | "styles" | "tags";
  /** The truth for heading detection: what is printed where it stands. */
  headings: TruthHeading[];
  /**
   * The truth for placing an outline (PDF outlines only): every heading-like entry, printed on its
   * page or not, since an entry whose title is not found still gives a heading on its page.
   */
  outline: TruthHeading[];
  /** Outline entries left out of `headings` (not heading-like, or not printed on their page). */
  dropped: number;
}

const TRUTH_DIR = resolve(import.meta.dir, "truth");

const decode = (s: string) =>
  s
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();

function run(cmd: string[]): string {
  const p = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd[0]} failed: ${p.stderr.toString().slice(0, 200)}`);
  return p.stdout.toString();
}

/** Every page's text by pdftotext, normalised (index 0 is page 1). */
export function pdfPageTexts(path: string): string[] {
  return run(["pdftotext", "-q", "-enc", "UTF-8", path, "-"]).split("\f").map(normText);
}

/** The outline as poppler reads it: nested <outline> lists of <item page="N">. */
export function pdfOutline(path: string): TruthHeading[] {
  const xml = run(["pdftohtml", "-xml", "-i", "-q", "-stdout", "-f", "1", "-l", "1", path]);
  const out: TruthHeading[] = [];
  let depth = 0;
  for (const m of xml.matchAll(/<outline>|<\/outline>|<item(?: page="(\d+)")?>([\s\S]*?)<\/item>/g)) {
    if (m[0] === "<outline>") depth++;
    else if (m[0] === "</outline>") depth--;
    else if (m[1]) out.push({ title: decode(m[2]!), level: depth, page: Number(m[1]) });
  }
  return out;
}

const printedOn = (title: string, page: number, pages: string[]) => {
  const t = normTitle(title) || normText(title);
  return t.length > 0 && [page, page + 1].some((p) => pages[p - 1]?.includes(t));
};

function outlineTruth(path: string): HeadingTruth | null {
  const outline = pdfOutline(path);
  if (outline.length === 0) return null;
  const pages = pdfPageTexts(path);
  const entries = outline.filter((h) => headingLike(h.title));
  const headings = entries.filter((h) => printedOn(h.title, h.page!, pages));
  return { from: "outline", headings, outline: entries, dropped: outline.length - headings.length };
}

const xml = (text: string) => new DOMParser().parseFromString(text, "text/xml");

function docxTruth(path: string): HeadingTruth {
  const files = unzipSync(new Uint8Array(readFileSync(path)));
  const names = new Map(
    [...xml(strFromU8(files["word/styles.xml"]!)).getElementsByTagName("w:style")].map((s) => [
      s.getAttribute("w:styleId"),
      s.getElementsByTagName("w:name")[0]?.getAttribute("w:val") ?? "",
    ]),
  );
  const headings: TruthHeading[] = [];
  for (const p of xml(strFromU8(files["word/document.xml"]!)).getElementsByTagName("w:p")) {
    const style = names.get(p.getElementsByTagName("w:pStyle")[0]?.getAttribute("w:val") ?? null) ?? "";
    const level = /^heading (\d)$/i.exec(style)?.[1];
    const title = [...p.getElementsByTagName("w:t")].map((t) => t.textContent ?? "").join("");
    if (level && title.trim()) headings.push({ title: title.trim(), level: Number(level), page: null });
  }
  return { from: "styles", headings, outline: [], dropped: 0 };
}

async function htmlTruth(path: string): Promise<HeadingTruth> {
  const expected = join(dirname(path), "expected.html");
  const file = path.endsWith("/source.html") && existsSync(expected) ? expected : path;
  const { document } = parseHTML(await Bun.file(file).text());
  const headings = [...document.querySelectorAll("h1, h2, h3, h4")]
    .map((h) => ({ title: (h.textContent ?? "").replace(/\s+/g, " ").trim(), level: Number(h.tagName[1]), page: null }))
    .filter((h) => h.title);
  return { from: "tags", headings, outline: [], dropped: 0 };
}

/** The heading truth of a document, or null when it has none. */
export async function headingTruth(doc: BenchDocument): Promise<HeadingTruth | null> {
  if (doc.kind === "docx") return docxTruth(doc.path);
  if (doc.kind === "html") return htmlTruth(doc.path);
  const fromOutline = outlineTruth(doc.truthOf?.path ?? doc.path);
  // A copy without its outline is read with nothing withheld; the original's outline is its truth.
  if (fromOutline && doc.truthOf) return { ...fromOutline, from: "original's outline", outline: [] };
  if (fromOutline) return fromOutline;
  const hand = join(TRUTH_DIR, "contents", `${doc.name}.json`);
  if (!existsSync(hand)) return null;
  return { from: "contents page", headings: await Bun.file(hand).json(), outline: [], dropped: 0 };
}
