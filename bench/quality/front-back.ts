/**
 * A source's front and back matter read straight from the file, by another route than ingest: the
 * course engine skips blocks by their ingest roles (src/ingest/roles.ts), so a figure read from
 * those roles cannot see a role mistake. Here:
 *   - PDF (poppler's pdftotext, reading order): page 1 above its first section heading (Abstract or
 *     1 Introduction; all of page 1 when it has none, a manual's cover), page 1's indexing lines
 *     (Keywords, Categories and Subject Descriptors, …), copyright notices on pages 1-2, the acknowledgements,
 *     and the references from the last heading named References or Bibliography to an appendix
 *     heading or the end;
 *   - DOCX (document.xml): the paragraphs before the first heading-styled one (title, authors), and
 *     sections whose heading names references or acknowledgements;
 *   - PPTX: the first slide's text below its title (the authors of a title slide);
 *   - HTML (the page as served): header, footer, navigation, navigation boxes and reference lists.
 * A course sentence of six words or more is taught from these when 60% of its word pairs occur in one
 * of their paragraphs, entries or list items, or in two neighbouring ones (normalised words, so line
 * breaks and punctuation do not matter; one paragraph rather than the whole region, so a body
 * sentence is not matched word pair by word pair across forty reference entries).
 */
import { strFromU8, unzipSync } from "fflate";
import { DOMParser, parseHTML } from "linkedom";

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
const bigrams = (s: string) => {
  const w = norm(s).split(" ").filter(Boolean);
  return w.slice(0, -1).map((_, i) => `${w[i]} ${w[i + 1]}`);
};

const SECTION_START = /^(abstract\b|((1|i)\.?\s*)?introduction$)/i;
const INDEXING =
  /^(keywords|key words|index terms|general terms|ccs concepts|categories and subject descriptors|acm reference format)\b/i;
const COPYRIGHT = /\bcopyright\b|^permission (to make digital|is granted)/i;
const REFERENCES = /^((\d+|[A-Z])\.?\s+|appendix\s+[A-Z]\.?\s+)?(references|bibliography)$/i;
const ACKNOWLEDGEMENTS = /^(\d+\.?\s+)?acknowledge?ments?$/i;
/** An appendix heading after the references: "A", "Appendix B", "C Qualitative Analysis". */
const APPENDIX = /^(appendix\s+)?[A-Z](\.?\s+\p{Lu}\p{Ll}+(\s+[\p{L}-]+){0,6})?$/u;

function pdfText(path: string, lastPage?: number): string {
  const args = lastPage ? ["-f", "1", "-l", String(lastPage)] : [];
  const run = Bun.spawnSync(["pdftotext", "-enc", "UTF-8", ...args, path, "-"]);
  if (run.exitCode !== 0) throw new Error(`pdftotext failed on ${path} (apt-get install poppler-utils)`);
  return run.stdout.toString();
}

/** Lines from `from` up to (not including) the first later line that `until` accepts, or the end. */
function section(lines: string[], from: number, until: (line: string) => boolean): string[] {
  let end = from + 1;
  while (end < lines.length && !until(lines[end]!.trim())) end++;
  return lines.slice(from, end);
}

/** Paragraphs of pdftotext lines: a page's text runs on between blank lines. */
const paragraphs = (lines: string[]) => lines.join("\n").split(/\n\s*\n/);

function pdfFrontBack(path: string): string[] {
  const page = pdfText(path, 1).split("\n");
  const start = page.findIndex((l) => SECTION_START.test(l.trim()));
  const out = paragraphs(start < 0 ? page : page.slice(0, start));
  page.forEach((l, i) => {
    if (INDEXING.test(l.trim())) out.push(section(page, i, (x) => x === "").join("\n"));
  });
  out.push(...paragraphs(pdfText(path, 2).split("\n")).filter((p) => COPYRIGHT.test(p.trim())));
  const all = pdfText(path).split("\n");
  const ack = all.findIndex((l) => ACKNOWLEDGEMENTS.test(l.trim()));
  if (ack >= 0) out.push(...paragraphs(section(all, ack, (x) => REFERENCES.test(x) || /^\d+(\.\d+)*\.?$/.test(x))));
  const refs = all.findLastIndex((l) => REFERENCES.test(l.trim()));
  if (refs >= 0) out.push(...paragraphs(section(all, refs, (x) => APPENDIX.test(x))));
  return out;
}

const zipped = async (path: string) => unzipSync(new Uint8Array(await Bun.file(path).arrayBuffer()));
const xml = (text: string) => new DOMParser().parseFromString(text, "text/xml");
const texts = (el: Element, tag: string) => [...el.getElementsByTagName(tag)].map((t) => t.textContent ?? "").join("");

async function docxFrontBack(path: string): Promise<string[]> {
  const files = await zipped(path);
  const styleNames = new Map(
    [...xml(strFromU8(files["word/styles.xml"]!)).getElementsByTagName("w:style")].map((s) => [
      s.getAttribute("w:styleId"),
      s.getElementsByTagName("w:name")[0]?.getAttribute("w:val") ?? "",
    ]),
  );
  const paragraphs = [...xml(strFromU8(files["word/document.xml"]!)).getElementsByTagName("w:p")].map((p) => {
    const style = styleNames.get(p.getElementsByTagName("w:pStyle")[0]?.getAttribute("w:val") ?? null) ?? "";
    const level = /^heading (\d)$/i.exec(style)?.[1];
    return { text: texts(p, "w:t"), level: level ? Number(level) : null };
  });
  const firstHeading = paragraphs.findIndex((p) => p.level !== null);
  const out = paragraphs.slice(0, Math.max(firstHeading, 0)).map((p) => p.text);
  let open: number | null = null;
  for (const p of paragraphs) {
    if (p.level !== null && open !== null && p.level <= open) open = null;
    if (p.level !== null && (REFERENCES.test(p.text.trim()) || ACKNOWLEDGEMENTS.test(p.text.trim()))) open = p.level;
    if (open !== null) out.push(p.text);
  }
  return out;
}

async function pptxFrontBack(path: string): Promise<string[]> {
  const slide = (await zipped(path))["ppt/slides/slide1.xml"];
  if (!slide) return [];
  return [...xml(strFromU8(slide)).getElementsByTagName("p:sp")]
    .filter((sp) => !/^(title|ctrTitle)$/.test(sp.getElementsByTagName("p:ph")[0]?.getAttribute("type") ?? ""))
    .map((sp) => texts(sp, "a:t"));
}

async function htmlFrontBack(path: string): Promise<string[]> {
  const { document } = parseHTML(await Bun.file(path).text());
  const selector = [
    "header",
    "footer",
    "nav",
    "[role=banner]",
    "[role=navigation]",
    "[role=contentinfo]",
    "[id*=footer]",
    "[id*=navigation]",
    ".navbox",
    "ol.references",
    ".reflist",
  ].join(",");
  // Each entry, item or cell of those regions on its own; a region with none is one unit.
  return [...document.querySelectorAll(selector)].flatMap((region) => {
    const items = [...region.querySelectorAll("li, p, td, th, dd, dt")];
    return (items.length > 0 ? items : [region]).map((el) => el.textContent ?? "");
  });
}

export interface FrontBack {
  /** Word pairs of each paragraph, entry or item, in order. */
  units: Set<string>[];
  /** Normalised words read, to show the region is not empty. */
  words: number;
}

/** The front and back matter of a corpus document, as word pairs. */
export async function frontBackOf(path: string): Promise<FrontBack> {
  const ext = path.split(".").pop()!.toLowerCase();
  const units =
    ext === "pdf"
      ? pdfFrontBack(path)
      : ext === "docx"
        ? await docxFrontBack(path)
        : ext === "pptx"
          ? await pptxFrontBack(path)
          : await htmlFrontBack(path);
  return {
    units: units.map((u) => new Set(bigrams(u))),
    words: units.reduce((n, u) => n + norm(u).split(" ").filter(Boolean).length, 0),
  };
}

/** Whether a course sentence is taught from front or back matter: 60% of its word pairs in one unit or two neighbours. */
export function fromFrontBack(sentence: string, region: FrontBack): boolean {
  const b = bigrams(sentence);
  if (b.length < 5) return false;
  const share = (has: (x: string) => boolean) => b.filter(has).length >= 0.6 * b.length;
  return region.units.some(
    (u, i) => share((x) => u.has(x)) || share((x) => u.has(x) || (region.units[i + 1]?.has(x) ?? false)),
  );
}
