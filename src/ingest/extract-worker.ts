/**
 * Entry point of an extraction process (pool.ts starts it; in the executable, as its hidden
 * `extract-worker` command). Parsing runs here, outside the server's process, so a long PDF or OCR
 * never stalls other requests, and a parse that hangs or swells can be killed without touching the
 * server's memory.
 */
import { AppError } from "../errors.ts";
import { runFileJob } from "./extract-file.ts";
import type { CommitMessage, TurnMessage, WireError, WorkerReply } from "./pool.ts";
import type { FileJob } from "./types.ts";

const MB = 1024 * 1024;
/**
 * Above this heap size the process collects garbage after a turn (~40-50 ms, after the reply is
 * sent). Left to itself, JSC let a worker's heap grow job after job: 8 back-to-back 339-page PDFs
 * peaked at ~400 MB RSS (~650 MB with two threads busy), ~300 MB (~510 MB) with this. Small jobs
 * stay under it and skip the pause.
 */
const COLLECT_ABOVE_MB = 32;

const heapMb = () => process.memoryUsage().heapTotal / MB;

function toWire(err: unknown, filename: string): WireError {
  if (err instanceof AppError) return { code: err.code, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { code: "EXTRACTION_FAILED", message: `"${filename}" could not be extracted: ${message}` };
}

async function reply(id: number, job: FileJob): Promise<WorkerReply> {
  try {
    return { id, ok: true, result: await runFileJob(job) };
  } catch (err) {
    return { id, ok: false, error: toWire(err, job.filename) };
  }
}

/**
 * How long a turn's indexed files may wait for their shared commit: their answers wait as long,
 * and the lock the commit holds keeps the server's own writes waiting.
 */
const HOLD_MS = 500;

const writes = () => import("../retrieval/worker-index.ts");

/** Commits the held writes and says so; the files answered `held` are settled by this. */
async function commitHeld(): Promise<void> {
  // A server that is gone marks these documents failed on restart: nothing more is saved for them.
  if (process.ppid !== server) process.exit(0);
  const message: CommitMessage = { committed: true };
  try {
    (await writes()).commitHeldWrites();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    Object.assign(message, {
      committed: false,
      error: { code: "EXTRACTION_FAILED", message: `the indexed text could not be saved: ${reason}` },
    });
  }
  process.send!(message);
}

// A turn's files run one after another, each answered as it ends; a failed one ends the turn, since
// the pool replaces this process then. The chunks of a turn's indexed files are committed together
// (once per HOLD_MS at least): a commit per abstract cost more than its parse. Their answers say
// `held`, and the commit's message settles them.
process.on("message", async ({ turn }: TurnMessage) => {
  let heldSince: number | null = null;
  for (const [i, { id, job }] of turn.entries()) {
    const holds = turn.length > 1 && job.index !== undefined;
    if (holds && heldSince === null) {
      (await writes()).holdWrites();
      heldSince = performance.now();
    }
    const message = await reply(id, job);
    // The heap as the turn left it, before any collection: how much memory its jobs took.
    if (i === turn.length - 1) message.heapMb = heapMb();
    if (!message.ok) {
      if (heldSince !== null) await commitHeld();
      process.send!(message);
      break;
    }
    process.send!({ ...message, held: holds });
    if (heldSince !== null && (i === turn.length - 1 || performance.now() - heldSince >= HOLD_MS)) {
      await commitHeld();
      heldSince = null;
    }
  }
  if (heapMb() > COLLECT_ABOVE_MB) Bun.gc(true);
});
// The server is gone (stopped, or killed without a word): nothing will ask for work again.
const server = process.ppid;
process.on("disconnect", () => process.exit(0));
setInterval(() => process.ppid !== server && process.exit(0), 500).unref();
