/**
 * Runs the extractive engine's builders, and the reads of a whole source that ingest and planning
 * need, in one worker thread (extractive-worker.ts), one at a time, so the server's event loop stays
 * free for every other request while a course is built.
 * Answers to questions stay on the server's thread (answer.ts): they read a few passages, and must
 * not wait behind another tenant's course. A worker that dies fails the builds it held; the next
 * build starts a new one.
 */
import { Worker } from "node:worker_threads";
import { AppError, type ErrorCode, errorCatalogue } from "../../errors.ts";
import type { Builders, BuildReply, SourceReads } from "./extractive-worker.ts";

export type BuilderName = keyof Builders;

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

let worker: Worker | null = null;
const pending = new Map<number, Pending>();
let nextId = 0;

function failAll(err: Error): void {
  for (const p of pending.values()) p.reject(err);
  pending.clear();
  worker = null;
}

function start(): Worker {
  const w = new Worker(new URL("./extractive-worker.ts", import.meta.url));
  w.on("message", (reply: BuildReply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if ("out" in reply) p.resolve(reply.out);
    else {
      const { code, message, details } = reply.error;
      p.reject(code && code in errorCatalogue ? new AppError(code as ErrorCode, message, details) : new Error(message));
    }
    // Idle, the thread does not keep a stopping server alive.
    if (pending.size === 0) w.unref();
  });
  w.on("error", (err: unknown) => failAll(err instanceof Error ? err : new Error(String(err))));
  w.on("exit", (code) => {
    if (worker === w) failAll(new Error(`The extractive engine's thread stopped (exit code ${code})`));
  });
  return w;
}

/** One piece of work in the thread. `input` is copied there (structured clone): plain data only. */
function post(name: string, input: unknown): Promise<unknown> {
  worker ??= start();
  // Held while a build runs; a server stopping mid-build exits once it is done.
  worker.ref();
  const id = nextId++;
  const w = worker;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, name, input });
  });
}

/** One build in the thread. */
export const buildInThread = <K extends BuilderName>(
  name: K,
  input: Parameters<Builders[K]>[0],
): Promise<ReturnType<Builders[K]>> => post(name, input) as Promise<ReturnType<Builders[K]>>;

/** One read of a whole source in the thread (its repeats, its course's plan, a topic's match), in turn with the builds. */
export const readInThread = <K extends keyof SourceReads>(
  name: K,
  input: Parameters<SourceReads[K]>[0],
): Promise<Awaited<ReturnType<SourceReads[K]>>> => post(name, input) as Promise<Awaited<ReturnType<SourceReads[K]>>>;
