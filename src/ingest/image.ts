/** PNG, JPEG and WEBP images: their text, recognised by OCR with automatic page segmentation. */
import { MIME_TYPES } from "./detect.ts";
import { resultOf } from "./result.ts";
import { recognizeBlocks } from "./ocr.ts";
import { ocrBlocks } from "./ocr-text.ts";
import type { ExtractResult } from "./types.ts";

export async function extractImage(path: string, kind: "png" | "jpg" | "webp"): Promise<ExtractResult> {
  // Leptonica reads these itself, palette, 16-bit, gray+alpha, transparent and CMYK JPEG included.
  const blocks = ocrBlocks(await recognizeBlocks(await Bun.file(path).bytes()), { page: 1 });
  return resultOf(blocks, { title: null, mimeType: MIME_TYPES[kind], pages: 1 }, "page");
}
