/**
 * Entry point of an extraction process (pool.ts starts it; in the executable, as its hidden
 * `extract-worker` command). Parsing runs here, outside the server's process, so a long PDF or OCR
 * never stalls other requests, and a parse that hangs or swells can be killed without touching the
 * server's memory.
 */
import { AppError } from "../errors.ts";
import { runFileJob } from "./extract-file.ts";
import type { TurnMessage, WireError, WorkerReply } from "./pool.ts";
import type { FileJob } from "./types.ts";

const MB = 1024 * 1024;
/**
 * Above this heap size the process collects garbage after a turn (~40-50 ms, after the reply is
 * sent). Left to itself, JSC let a worker's heap grow job after job: 8 back-to-back 339-page PDFs
 * peaked at ~400 MB RSS (~650 MB with two threads busy), ~300 MB (~510 MB) with this. Small jobs
 * stay under it and skip the pause.
 */
const COLLECT_ABOVE_MB = 32;

function toWire(err: unknown, filename: string): WireError {
  if (err instanceof AppError) return { code: err.code, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { code: "EXTRACTION_FAILED", message: `"${filename}" could not be extracted: ${message}` };
}

async function reply(id: number, job: FileJob): Promise<WorkerReply> {
  // The heap as the job left it, before any collection: how much memory the job took.
  const usage = () => ({ heapMb: process.memoryUsage().heapTotal / MB });
  try {
    const result = await runFileJob(job);
    return { id, ok: true, result, ...usage() };
  } catch (err) {
    return { id, ok: false, error: toWire(err, job.filename), ...usage() };
  }
}

/** Sends the reply and returns the job's heap size and outcome; the result is unreachable once this returns. */
async function answer(id: number, job: FileJob): Promise<{ heapMb: number; ok: boolean }> {
  const message = await reply(id, job);
  process.send!(message);
  return { heapMb: message.heapMb, ok: message.ok };
}

// A turn's files run one after another, each answered as it ends; a failed one ends the turn, since
// the pool replaces this process then.
process.on("message", async ({ turn }: TurnMessage) => {
  let heapMb = 0;
  for (const { id, job } of turn) {
    const outcome = await answer(id, job);
    heapMb = Math.max(heapMb, outcome.heapMb);
    if (!outcome.ok) break;
  }
  if (heapMb > COLLECT_ABOVE_MB) Bun.gc(true);
});
// The server is gone (stopped, or killed without a word): nothing will ask for work again.
const server = process.ppid;
process.on("disconnect", () => process.exit(0));
setInterval(() => process.ppid !== server && process.exit(0), 500).unref();
