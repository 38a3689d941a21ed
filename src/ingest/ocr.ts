/**
 * OCR with tesseract.js. Its recogniser runs in tesseract's own worker thread; the English model
 * comes from the @tesseract.js-data/eng package, embedded as a file, so nothing is fetched from a
 * CDN (`langPath` is always a local directory) and no cache is written (`cacheMethod: "none"`).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import engModelPath from "@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz" with { type: "file" };
import { createWorker, OEM, PSM, type RecognizeOptions, type Block as TesseractBlock, type Worker } from "tesseract.js";

/** An idle recogniser is shut down after this long, giving its ~100 MB back. */
const IDLE_MS = 30_000;

let worker: Promise<Worker> | null = null;
let idleTimer: ReturnType<typeof setTimeout> | null = null;
let busy = 0;

const MODEL_FILE = "eng.traineddata.gz";

/**
 * tesseract.js reads `<langPath>/eng.traineddata.gz`. From node_modules the embedded path already
 * has that name; inside a compiled executable the embedded file is renamed, so it is copied once
 * under that name. (Handing the bytes over directly is broken in tesseract.js 7: it joins the
 * data, not the code, into the language string.)
 */
async function modelDir(): Promise<string> {
  if (basename(engModelPath) === MODEL_FILE) return dirname(engModelPath);
  const dir = join(tmpdir(), "courseforge-tessdata");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, MODEL_FILE), await Bun.file(engModelPath).bytes());
  return dir;
}

async function startWorker(): Promise<Worker> {
  const w = await createWorker("eng", OEM.LSTM_ONLY, {
    langPath: await modelDir(),
    gzip: true,
    cacheMethod: "none",
    // Our own entry point: the package's worker script is looked up in node_modules, which an executable lacks.
    workerPath: fileURLToPath(new URL("./ocr-worker.ts", import.meta.url)),
  });
  // tesseract.js reads a page as one block of text by default; automatic segmentation finds the
  // columns, text blocks and paragraphs, in reading order. (AUTO_OSD would need osd.traineddata.)
  await w.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
  return w;
}

function scheduleIdleStop(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void stopOcr(), IDLE_MS);
  idleTimer.unref?.();
}

/**
 * Tesseract's layout of one image (PNG, JPEG, WEBP, TIFF, BMP or PNM bytes): blocks, paragraphs,
 * lines and words with their boxes, in reading order. `dpi`, when the caller knows it (a page it
 * drew), spares Tesseract its guess from the text height.
 */
export async function recognizeBlocks(image: Uint8Array, dpi?: number): Promise<TesseractBlock[]> {
  if (idleTimer) clearTimeout(idleTimer);
  busy++;
  try {
    worker ??= startWorker().catch((err: unknown) => {
      worker = null;
      throw err;
    });
    const w = await worker;
    // Tesseract parameters ride in the options (set for this call only); the types name only tesseract.js's own.
    const options = (dpi ? { user_defined_dpi: String(dpi) } : {}) as Partial<RecognizeOptions>;
    const result = await w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), options, {
      text: false,
      blocks: true,
    });
    return result.data.blocks ?? [];
  } finally {
    busy--;
    if (busy === 0) scheduleIdleStop();
  }
}

async function stopOcr(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const w = worker;
  worker = null;
  if (w) await (await w).terminate();
}
