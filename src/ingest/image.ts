/** PNG, JPEG and WEBP images: their text, recognised by OCR. */
import { MIME_TYPES } from "./detect.ts";
import { resultOf } from "./markdown.ts";
import { recognizeText } from "./ocr.ts";
import { ocrTextToMarkdown } from "./ocr-text.ts";
import type { ExtractResult } from "./types.ts";

export async function extractImage(path: string, kind: "png" | "jpg" | "webp"): Promise<ExtractResult> {
  const markdown = ocrTextToMarkdown(await recognizeText(await Bun.file(path).bytes()));
  return resultOf([{ markdown, page: 1 }], { title: null, mimeType: MIME_TYPES[kind], pages: 1 });
}
