/**
 * Which of a PDF's fonts are bold. pdf.js's text content names fonts by an id only; the font's
 * real name ("NimbusRomNo9L-Medi", "CMBX12") arrives when a page's operator list is built, which
 * costs as much as its text or (images decoded) far more. So only the pages that first use a font
 * some would-be heading is set in are loaded, a few per document.
 */
import type { PdfDocument } from "./pdf-document.ts";

const BOLD_NAME_RE = /bold|black|heavy|demi|medi|[-,]bd\b|-md\b|^cmbx|^cmb\d|^cmssbx/i;

/** Whether a font's PostScript name says bold ("ABCDEF+Times-Bold", "CMBX12", "…-Medi"). */
export const isBoldName = (name: string): boolean => BOLD_NAME_RE.test(name.replace(/^[A-Z]{6}\+/, ""));

/** An upper bound on operator lists built for font names, so no document pays per page. */
const MAX_PAGES_LOADED = 4;

/**
 * The bold ones among the fonts asked about. `wanted` maps each font id to the first page using it;
 * one page's operator list names every font on that page, so later fonts are often known already.
 */
export async function boldFonts(pdf: PdfDocument, wanted: Map<string, number>): Promise<Set<string>> {
  const names = new Map<string, string>();
  const bold = new Set<string>();
  let loaded = 0;
  for (const [font, pageNumber] of [...wanted].sort((a, b) => a[1] - b[1])) {
    if (names.has(font) || loaded >= MAX_PAGES_LOADED) continue;
    const page = await pdf.getPage(pageNumber);
    try {
      await page.getOperatorList();
      loaded++;
      for (const id of wanted.keys()) {
        if (!names.has(id) && page.commonObjs.has(id))
          names.set(id, String((page.commonObjs.get(id) as { name?: string }).name ?? ""));
      }
    } catch {
      // An unreadable page leaves its fonts regular.
    } finally {
      page.cleanup();
    }
  }
  for (const [id, name] of names) if (isBoldName(name)) bold.add(id);
  return bold;
}
