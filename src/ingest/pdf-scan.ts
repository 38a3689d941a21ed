/**
 * Pages without a text layer (scans): the page's images drawn onto one gray page, as the reader
 * sees it, and that page OCR'd into blocks.
 *
 * pdf.js decodes every image encoding (JPEG, Flate, CCITT G4, JBIG2, indexed, CMYK, 16-bit) to
 * 1-bit, RGB or RGBA pixels; ocr-raster.ts brings each to gray. Drawing them where the page's
 * operators put them (rather than OCR-ing each image alone) handles a page scanned in strips, a
 * rotated page or placement, and an image stored at a lower resolution than it is shown.
 */
import { getResolvedPDFJS } from "unpdf";
import type { Block } from "./document.ts";
import { recognizeBlocks } from "./ocr.ts";
import {
  blankPage,
  type Gray,
  type Matrix,
  multiply,
  type PdfjsImage,
  paint,
  pdfjsImageToGray,
  toPgm,
} from "./ocr-raster.ts";
import { ocrBlocks } from "./ocr-text.ts";
import type { PdfDocument } from "./pdf-document.ts";

type PdfPage = Awaited<ReturnType<PdfDocument["getPage"]>>;

/** Pages are OCR'd at 300 dpi at least (Tesseract's accuracy falls off below it), 400 at most. */
const MIN_DPI = 300;
const MAX_DPI = 400;
/** A page raster larger than this is drawn at a lower resolution (a poster, a plan). */
const MAX_PAGE_PIXELS = 36_000_000;
/** Images narrower or shorter than this many pixels (rules, dots) carry no text. */
const MIN_IMAGE_SIDE = 8;

interface Placed {
  image: Gray;
  /** The image's unit square to the page's device space in points (top-left origin, page rotation applied). */
  toDevice: Matrix;
}

const isMatrix = (m: unknown): m is Matrix =>
  Array.isArray(m) && m.length === 6 && m.every((v) => typeof v === "number");

function resolveObject(page: PdfPage, id: string): Promise<unknown> {
  return new Promise((resolve) => (id.startsWith("g_") ? page.commonObjs : page.objs).get(id, resolve));
}

/** The page's images with where each is drawn, from its operator list. */
async function placedImages(page: PdfPage, viewport: Matrix): Promise<Placed[]> {
  const { OPS } = await getResolvedPDFJS();
  const ops = await page.getOperatorList();
  const placed: Placed[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const add = (raw: unknown, at: Matrix) => {
    const image = raw && typeof raw === "object" && "data" in raw ? pdfjsImageToGray(raw as PdfjsImage) : null;
    if (image && image.width >= MIN_IMAGE_SIDE && image.height >= MIN_IMAGE_SIDE)
      placed.push({ image, toDevice: multiply(viewport, at) });
  };
  for (let i = 0; i < ops.fnArray.length; i++) {
    const args = ops.argsArray[i] as unknown[] | null;
    switch (ops.fnArray[i]) {
      case OPS.save:
        stack.push(ctm);
        break;
      case OPS.restore:
        ctm = stack.pop() ?? ctm;
        break;
      case OPS.transform:
        if (isMatrix(args)) ctm = multiply(ctm, args);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push(ctm);
        if (isMatrix(args?.[0])) ctm = multiply(ctm, args[0]);
        break;
      case OPS.paintFormXObjectEnd:
        ctm = stack.pop() ?? ctm;
        break;
      case OPS.paintImageXObject:
        add(await resolveObject(page, args![0] as string), ctm);
        break;
      case OPS.paintImageXObjectRepeat: {
        const [id, sx, sy, positions] = args as [string, number, number, number[]];
        const image = await resolveObject(page, id);
        for (let p = 0; p + 1 < positions.length; p += 2)
          add(image, multiply(ctm, [sx, 0, 0, sy, positions[p]!, positions[p + 1]!]));
        break;
      }
      case OPS.paintInlineImageXObject:
        add(args![0], ctm);
        break;
      case OPS.paintImageMaskXObject: {
        // A stencil mask (often how JBIG2 and CCITT text is stored): 1-bit, its pixels painted in the fill colour.
        const mask = args![0] as { data: unknown; width: number; height: number };
        const data =
          typeof mask.data === "string"
            ? ((await resolveObject(page, mask.data)) as { data?: unknown } | null)?.data
            : mask.data;
        if (data instanceof Uint8Array || data instanceof Uint8ClampedArray)
          add({ width: mask.width, height: mask.height, data }, ctm);
        break;
      }
    }
  }
  return placed;
}

/** Device points to page pixels: the finest image's own resolution, kept within the OCR range. */
function pageScale(placed: Placed[], width: number, height: number): number {
  let native = 0;
  for (const { image, toDevice: m } of placed) {
    native = Math.max(native, image.width / Math.hypot(m[0], m[1]), image.height / Math.hypot(m[2], m[3]));
  }
  const scale = Math.min(Math.max(native, MIN_DPI / 72), MAX_DPI / 72);
  return Math.min(scale, Math.sqrt(MAX_PAGE_PIXELS / (width * height)));
}

export async function ocrPage(pdf: PdfDocument, pageNumber: number): Promise<Block[]> {
  const page = await pdf.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const placed = await placedImages(page, viewport.transform as Matrix);
    if (placed.length === 0) return [];
    const scale = pageScale(placed, viewport.width, viewport.height);
    const raster = blankPage(Math.ceil(viewport.width * scale), Math.ceil(viewport.height * scale));
    for (const { image, toDevice } of placed) paint(raster, image, multiply([scale, 0, 0, scale, 0, 0], toDevice));
    return ocrBlocks(await recognizeBlocks(toPgm(raster), Math.round(scale * 72)), { page: pageNumber });
  } finally {
    page.cleanup();
  }
}

/**
 * Pages without a text layer, OCR'd as soon as the page loop finds them: recognition runs in
 * tesseract's own thread, so a scanned cover is read while the text pages are. One page at a time,
 * so only one page raster is held.
 */
export class OcrQueue {
  private last: Promise<unknown> = Promise.resolve();
  private readonly pages = new Map<number, Promise<Block[]>>();

  constructor(private readonly ocr: (page: number) => Promise<Block[]>) {}

  /** Queues the page; its recognition starts when the pages queued before it are done. */
  add(page: number): void {
    const blocks = this.last.then(() => this.ocr(page));
    // A failure is the document's when the page's blocks are asked for; the queue goes on.
    this.last = blocks.catch(() => {});
    this.pages.set(page, blocks);
  }

  /** The blocks of a page queued earlier. */
  blocks(page: number): Promise<Block[]> {
    return this.pages.get(page)!;
  }
}
