/** Pages without a text layer (scans): their page images OCR'd into blocks. */
import { extractImages } from "unpdf";
import type { Block } from "./document.ts";
import { rawToPpm, recognizeText } from "./ocr.ts";
import { ocrTextToBlocks } from "./ocr-text.ts";
import type { PdfDocument } from "./pdf.ts";

/** Images smaller than this (logos, rules, icons) are not worth OCR. */
const MIN_OCR_WIDTH = 200;
const MIN_OCR_HEIGHT = 50;

export async function ocrPage(pdf: PdfDocument, pageNumber: number): Promise<Block[]> {
  const images = await extractImages(pdf, pageNumber);
  const blocks: Block[] = [];
  for (const img of images) {
    if (img.width < MIN_OCR_WIDTH || img.height < MIN_OCR_HEIGHT) continue;
    blocks.push(...ocrTextToBlocks(await recognizeText(rawToPpm(img.data, img.width, img.height, img.channels)), { page: pageNumber }));
  }
  return blocks;
}
