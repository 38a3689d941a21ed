/** PNG, JPEG and WEBP images: their text, recognised by OCR. */
import { MIME_TYPES } from "./detect.ts";
import { resultOf } from "./result.ts";
import { recognizeText } from "./ocr.ts";
import { ocrTextToBlocks } from "./ocr-text.ts";
import type { ExtractResult } from "./types.ts";

export async function extractImage(path: string, kind: "png" | "jpg" | "webp"): Promise<ExtractResult> {
  const blocks = ocrTextToBlocks(await recognizeText(await Bun.file(path).bytes()), { page: 1 });
  return resultOf(blocks, { title: null, mimeType: MIME_TYPES[kind], pages: 1 }, "page");
}
