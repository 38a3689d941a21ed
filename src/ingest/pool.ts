/**
 * A small pool of extraction worker threads (INGEST_WORKERS). Jobs queue when all are busy. A job
 * that runs past INGEST_TIMEOUT_MS has its thread terminated, which stops even a parser stuck in
 * a loop; a thread is also replaced after a crash, and recycled after a large job or a number of
 * jobs, so memory a parser took or leaked is given back.
 */
import { Worker } from "node:worker_threads";
import { AppError } from "../errors.ts";
import type { FileJob } from "./extract-file.ts";
import type { ExtractResult } from "./types.ts";

export interface WireError {
  status: number;
  code: string;
  message: string;
}

export type WorkerReply = ({ ok: true; result: ExtractResult } | { ok: false; error: WireError }) & {
  id: number;
  /** The thread's JS heap when the job ended, before it collected garbage. */
  heapMb: number;
};

const WORKER_URL = new URL("./extract-worker.ts", import.meta.url);
/** Jobs a thread runs before it is replaced. */
const RECYCLE_AFTER = 50;
/**
 * A thread whose job left its heap at least this large is replaced. After the worker's own
 * collection the allocator still holds RSS in proportion to the largest job: ~155 MB after a
 * 339-page PDF (heap ~70-110 MB), ~250-310 MB after a 1,017-page one (heap ~155-180 MB), and only
 * ending the thread returns it (~70 MB left). A new thread compiles pdf.js afresh: recycling after
 * every 339-page PDF cost 1.7x the CPU time for no lower peak, so only the largest jobs pay that.
 */
const RECYCLE_HEAP_MB = 128;
/** An idle thread is stopped after this long, giving its memory back. */
const IDLE_MS = 60_000;

interface Slot {
  worker: Worker;
  busy: boolean;
  jobs: number;
  idleTimer: ReturnType<typeof setTimeout> | null;
}

interface Task {
  job: FileJob;
  timeoutMs: number;
  resolve: (result: ExtractResult) => void;
  reject: (err: AppError) => void;
}

export interface PoolStats {
  /** Threads running now. */
  threads: number;
  /** Threads started since the pool was created. */
  started: number;
  /** Threads replaced because their job left a large heap. */
  recycledLarge: number;
}

export class ExtractionPool {
  private slots: Slot[] = [];
  private queue: Task[] = [];
  private nextId = 1;
  private started = 0;
  private recycledLarge = 0;

  constructor(
    private readonly size: number,
    private readonly opts: { recycleHeapMb?: number } = {},
  ) {}

  run(job: FileJob, timeoutMs: number): Promise<ExtractResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  stats(): PoolStats {
    return { threads: this.slots.length, started: this.started, recycledLarge: this.recycledLarge };
  }

  /** Terminates every thread; queued jobs fail. */
  close(): void {
    for (const task of this.queue.splice(0)) task.reject(new AppError(503, "SHUTTING_DOWN", "the server is shutting down"));
    for (const slot of this.slots.splice(0)) this.stop(slot);
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => !s.busy) ?? (this.slots.length < this.size ? this.spawn() : null);
      if (!slot) return;
      this.dispatch(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_URL), busy: false, jobs: 0, idleTimer: null };
    this.slots.push(slot);
    this.started++;
    return slot;
  }

  private stop(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    this.slots = this.slots.filter((s) => s !== slot);
    void slot.worker.terminate();
  }

  private dispatch(slot: Slot, task: Task): void {
    const id = this.nextId++;
    const { worker } = slot;
    slot.busy = true;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    worker.ref();

    const done = (retire: boolean) => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      slot.busy = false;
      slot.jobs++;
      if (retire || slot.jobs >= RECYCLE_AFTER) this.stop(slot);
      else this.park(slot);
      this.pump();
    };
    const onMessage = (reply: WorkerReply) => {
      if (reply.id !== id) return;
      const large = reply.heapMb >= (this.opts.recycleHeapMb ?? RECYCLE_HEAP_MB);
      if (large) this.recycledLarge++;
      done(large);
      if (reply.ok) task.resolve(reply.result);
      else task.reject(new AppError(reply.error.status, reply.error.code, reply.error.message));
    };
    const onError = (err: Error) => {
      done(true);
      task.reject(new AppError(422, "EXTRACTION_FAILED", `"${task.job.filename}" could not be extracted: the parser failed (${err.message})`));
    };
    const timer = setTimeout(() => {
      done(true);
      task.reject(
        new AppError(422, "EXTRACTION_TIMEOUT", `"${task.job.filename}" took longer than ${Math.round(task.timeoutMs / 1000)} s to extract and was stopped`),
      );
    }, task.timeoutMs);

    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.postMessage({ id, job: task.job });
  }

  /** An idle thread must not keep the process alive, and is stopped after a while. */
  private park(slot: Slot): void {
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => this.stop(slot), IDLE_MS);
    slot.idleTimer.unref?.();
  }
}

let shared: ExtractionPool | null = null;

export function extractionPool(size: number): ExtractionPool {
  shared ??= new ExtractionPool(size);
  return shared;
}

/** Stops the extraction threads (server shutdown, end of a CLI command). */
export function stopExtractionWorkers(): void {
  shared?.close();
  shared = null;
}
