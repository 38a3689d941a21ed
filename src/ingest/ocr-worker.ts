/**
 * tesseract.js's worker thread as our own entry point: the package's Node worker script, except
 * that the recogniser's WebAssembly is handed to it as bytes read from an embedded file (build.ts
 * embeds it compressed, 1.2 MB where the build with it inlined as base64 takes 3.9 MB), so neither
 * the script nor a .wasm file has to be found in node_modules at run time. build.ts lists this file
 * as an entry point.
 */
import { access, readFile, unlink, writeFile } from "node:fs/promises";
import { parentPort } from "node:worker_threads";
import { gunzipSync } from "node:zlib";
// @ts-expect-error tesseract.js ships no types for its worker internals
import worker from "tesseract.js/src/worker-script/index.js";
// @ts-expect-error the core build ships no types
import TesseractCore from "tesseract.js-core/tesseract-core-simd-lstm.js";
import wasmPath from "tesseract.js-core/tesseract-core-simd-lstm.wasm" with { type: "file" };
import { embeddedBytes } from "../embedded-file.ts";

parentPort?.on("message", (packet: unknown) =>
  worker.dispatchHandlers(packet, (reply: unknown) => parentPort?.postMessage(reply)),
);

worker.setAdapter({
  getCore: async () => {
    const wasmBinary = await embeddedBytes(wasmPath);
    return (options: object) => TesseractCore({ ...options, wasmBinary });
  },
  gunzip: gunzipSync,
  fetch: () => Promise.reject(new Error("OCR language data is embedded; nothing is fetched")),
  readCache: (path: string) => readFile(path),
  writeCache: (path: string, data: Uint8Array) => writeFile(path, data),
  deleteCache: (path: string) => unlink(path).catch(() => undefined),
  checkCache: (path: string) =>
    access(path).then(
      () => true,
      () => false,
    ),
});
