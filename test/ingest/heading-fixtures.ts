/**
 * PDFs the heading tests build (pdf-lib): pages of positioned lines in chosen fonts and sizes, and
 * optionally an outline whose entries point at pages (and heights on them).
 */
import { PDFDocument, type PDFFont, PDFHexString, PDFName, type PDFRef, StandardFonts } from "pdf-lib";

export interface LineSpec {
  text: string;
  size?: number;
  bold?: boolean;
  /** Extra space above the line, in points. */
  gap?: number;
  x?: number;
  /** A footnote mark set after the line, at 60% of its size and raised by a third of it. */
  mark?: string;
}

export interface OutlineSpec {
  title: string;
  /** 1-based page. */
  page: number;
  children?: OutlineSpec[];
}

/** Body lines of ordinary prose, 11 pt: enough text for the body size to be the mode. */
export const prose = (n: number, topic: string): LineSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    text: `The ${topic} line ${i + 1} tells how water moves along the shore and why it matters here.`,
  }));

/** Pages of lines top down (11 pt regular unless said), with a page number at the foot when given. */
export async function linesPdf(
  pages: { lines: LineSpec[]; folio?: string }[],
  outline: OutlineSpec[] = [],
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
  for (const spec of pages) {
    const page = doc.addPage([595, 842]);
    let y = 790;
    for (const line of spec.lines) {
      const size = line.size ?? 11;
      y -= (line.gap ?? 0) + size * 1.3;
      const font: PDFFont = line.bold ? bold : regular;
      page.drawText(line.text, { x: line.x ?? 60, y, size, font });
      if (line.mark) {
        const x = (line.x ?? 60) + font.widthOfTextAtSize(line.text, size) + 1;
        page.drawText(line.mark, { x, y: y + size / 3, size: size * 0.6, font: regular });
      }
    }
    if (spec.folio) page.drawText(spec.folio, { x: 290, y: 40, size: 10, font: regular });
  }
  if (outline.length > 0) addOutline(doc, outline);
  return doc.save();
}

/** The /Outlines tree: each item a /Title and an explicit /XYZ destination at the top of its page. */
function addOutline(doc: PDFDocument, entries: OutlineSpec[]): void {
  const { context } = doc;
  const pageRefs = doc.getPages().map((p) => p.ref);
  const build = (items: OutlineSpec[], parent: PDFRef): { first: PDFRef; last: PDFRef; count: number } => {
    const refs = items.map(() => context.nextRef());
    let count = 0;
    items.forEach((item, i) => {
      const dict = context.obj({});
      dict.set(PDFName.of("Title"), PDFHexString.fromText(item.title));
      dict.set(PDFName.of("Parent"), parent);
      dict.set(PDFName.of("Dest"), context.obj([pageRefs[item.page - 1]!, PDFName.of("XYZ"), null, 842, null]));
      if (i > 0) dict.set(PDFName.of("Prev"), refs[i - 1]!);
      if (i < items.length - 1) dict.set(PDFName.of("Next"), refs[i + 1]!);
      count++;
      if (item.children?.length) {
        const sub = build(item.children, refs[i]!);
        dict.set(PDFName.of("First"), sub.first);
        dict.set(PDFName.of("Last"), sub.last);
        dict.set(PDFName.of("Count"), context.obj(sub.count));
        count += sub.count;
      }
      context.assign(refs[i]!, dict);
    });
    return { first: refs[0]!, last: refs[refs.length - 1]!, count };
  };
  const root = context.nextRef();
  const top = build(entries, root);
  context.assign(root, context.obj({ Type: "Outlines", First: top.first, Last: top.last, Count: top.count }));
  doc.catalog.set(PDFName.of("Outlines"), root);
}
