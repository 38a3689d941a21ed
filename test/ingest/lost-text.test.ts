/**
 * A glyph the page draws but whose font names no character for it (#28, DEV's PARI/GP tutorial: a
 * unit set in a math font without a Unicode mapping, "another unit than , had you not reset the
 * random seed"): the block's text holds the lost-text mark where it stood, so that what teaches,
 * quotes or reads sentences aloud can tell the hole (test/llm/quoted-sentences).
 */
import { afterAll, expect, test } from "bun:test";
import {
  beginText,
  endText,
  moveText,
  PDFDocument,
  PDFHexString,
  PDFName,
  StandardFonts,
  setFontAndSize,
  showText,
} from "pdf-lib";
import { hasLostText, LOST_TEXT } from "../../src/ingest/document.ts";
import { extractPdf } from "../../src/ingest/pdf.ts";
import { prose } from "./heading-fixtures.ts";
import { scratch } from "./support.ts";

const LIMITS = { maxPdfPages: 1000, maxOcrPages: 50, maxImagePixels: 40_000_000, maxXmlBytes: 10 * 1024 * 1024 };
const tmp = scratch();
afterAll(() => tmp.remove());

/** A page of prose with one sentence whose middle is a glyph of a Type 3 font with no character named (code 15, as TeX's math fonts print). */
async function holedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const ctx = doc.context;
  const box = ctx.register(ctx.flateStream("600 0 0 0 500 700 d1 0 0 500 700 re f"));
  const math = ctx.register(
    ctx.obj({
      Type: "Font",
      Subtype: "Type3",
      FontBBox: [0, 0, 500, 700],
      FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
      CharProcs: { g15: box },
      Encoding: { Type: "Encoding", Differences: [15, "g15"] },
      FirstChar: 15,
      LastChar: 15,
      Widths: [600],
      Resources: {},
    }),
  );
  const page = doc.addPage([595, 842]);
  page.node.setFontDictionary(PDFName.of("FM"), math);
  let y = 790;
  for (const line of prose(6, "unit")) {
    page.drawText(line.text, { x: 60, y, size: 11, font });
    y -= 14;
  }
  const before = "You could have obtained another unit than";
  page.drawText(before, { x: 60, y, size: 11, font });
  const x = 60 + font.widthOfTextAtSize(`${before} `, 11);
  page.pushOperators(
    beginText(),
    setFontAndSize(PDFName.of("FM"), 11),
    moveText(x, y),
    showText(PDFHexString.of("0F")),
    endText(),
  );
  page.drawText(", had you not reset the random seed.", { x: x + 7, y, size: 11, font });
  return doc.save();
}

test("a glyph with no character leaves the lost-text mark where it stood, and the rest of the text as it was", async () => {
  const path = await tmp.write("holed.pdf", await holedPdf());
  const r = await extractPdf(path, "holed.pdf", LIMITS);
  const holed = r.blocks.filter((b) => hasLostText(b.text));
  expect(holed).toHaveLength(1);
  expect(holed[0]!.text).toEndWith(
    `You could have obtained another unit than ${LOST_TEXT}, had you not reset the random seed.`,
  );
  // No control code (the glyph's, 15) is left in any block.
  expect(r.blocks.some((b) => [...b.text].some((c) => c.charCodeAt(0) < 0x20 && !"\t\n\r".includes(c)))).toBe(false);
});
