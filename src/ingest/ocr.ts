/**
 * OCR with tesseract.js. Its recogniser runs in tesseract's own worker thread; the English model
 * comes from the @tesseract.js-data/eng package, embedded as a file, so nothing is fetched from a
 * CDN (`langPath` is always a local directory) and no cache is written (`cacheMethod: "none"`).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createWorker, OEM, type Worker } from "tesseract.js";
import engModelPath from "@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz" with { type: "file" };

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
  return createWorker("eng", OEM.LSTM_ONLY, {
    langPath: await modelDir(),
    gzip: true,
    cacheMethod: "none",
    // Our own entry point: the package's worker script is looked up in node_modules, which an executable lacks.
    workerPath: fileURLToPath(new URL("./ocr-worker.ts", import.meta.url)),
  });
}

function scheduleIdleStop(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void stopOcr(), IDLE_MS);
  idleTimer.unref?.();
}

/** Text of one image (PNG, JPEG, WEBP, BMP or PNM bytes), lines kept, paragraphs blank-separated. */
export async function recognizeText(image: Uint8Array): Promise<string> {
  if (idleTimer) clearTimeout(idleTimer);
  busy++;
  try {
    worker ??= startWorker().catch((err: unknown) => {
      worker = null;
      throw err;
    });
    const w = await worker;
    const result = await w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
    return result.data.text;
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

/**
 * Raw pixels (1, 3 or 4 channels) as a binary PPM image. Hand-written because PPM is a 15-byte
 * header over RGB bytes that Leptonica reads natively; an image library would add a native
 * dependency for nothing.
 */
export function rawToPpm(data: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: number): Uint8Array {
  const header = new TextEncoder().encode(`P6\n${width} ${height}\n255\n`);
  const out = new Uint8Array(header.length + width * height * 3);
  out.set(header);
  let j = header.length;
  for (let i = 0; i < width * height; i++) {
    const base = i * channels;
    const r = data[base]!;
    out[j++] = r;
    out[j++] = channels >= 3 ? data[base + 1]! : r;
    out[j++] = channels >= 3 ? data[base + 2]! : r;
  }
  return out;
}
