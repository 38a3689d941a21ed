/**
 * Entry point of an extraction worker thread. Parsing runs here, off the server's event loop, so
 * a long PDF or OCR never stalls other requests, and a parse that hangs can be ended by
 * terminating the thread. (A compiled executable must list this file as an extra entry point.)
 */
import { parentPort } from "node:worker_threads";
import { AppError } from "../errors.ts";
import { runFileJob, type FileJob } from "./extract-file.ts";
import type { WireError, WorkerReply } from "./pool.ts";

function toWire(err: unknown, filename: string): WireError {
  if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { status: 422, code: "EXTRACTION_FAILED", message: `"${filename}" could not be extracted: ${message}` };
}

parentPort?.on("message", async ({ id, job }: { id: number; job: FileJob }) => {
  let reply: WorkerReply;
  try {
    reply = { id, ok: true, result: await runFileJob(job) };
  } catch (err) {
    reply = { id, ok: false, error: toWire(err, job.filename) };
  }
  parentPort?.postMessage(reply);
});
