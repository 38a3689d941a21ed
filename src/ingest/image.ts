/** PNG, JPEG and WEBP images: their text, recognised by OCR with automatic page segmentation. */
import { imageSize } from "image-size";
import { AppError } from "../errors.ts";
import { MIME_TYPES } from "./detect.ts";
import { recognizeBlocks } from "./ocr.ts";
import { ocrBlocks } from "./ocr-text.ts";
import { resultOf } from "./result.ts";
import type { ExtractResult, FileLimits } from "./types.ts";

/**
 * The image's size from its header (PNG IHDR, JPEG SOF, WEBP VP8/VP8L/VP8X), before anything is
 * decoded: a 600 KB PNG can declare 25000 x 25000 pixels, 2.5 GB once decoded to RGBA.
 */
function assertPixelBudget(bytes: Uint8Array, filename: string, maxPixels: number): void {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch (err) {
    throw new AppError("UNREADABLE_FILE", `"${filename}" could not be read as an image: ${(err as Error).message}`);
  }
  const { width = 0, height = 0 } = size;
  if (width * height > maxPixels) {
    throw new AppError(
      "IMAGE_TOO_LARGE",
      `"${filename}" is ${width} x ${height} pixels; images of at most ${maxPixels} pixels are read (INGEST_MAX_IMAGE_PIXELS)`,
    );
  }
}

export async function extractImage(
  path: string,
  filename: string,
  kind: "png" | "jpg" | "webp",
  limits: FileLimits,
): Promise<ExtractResult> {
  const bytes = await Bun.file(path).bytes();
  assertPixelBudget(bytes, filename, limits.maxImagePixels);
  // Leptonica reads these itself, palette, 16-bit, gray+alpha, transparent and CMYK JPEG included.
  const blocks = ocrBlocks(await recognizeBlocks(bytes), { page: 1 });
  return resultOf(blocks, { title: null, mimeType: MIME_TYPES[kind], pages: 1 }, "page");
}
