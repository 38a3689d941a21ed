/**
 * Calls into a worker thread by name, each a message and its reply, run in turn on the thread:
 * the caller's side (threadCalls) and the thread's (serveCalls). The work a thread serves is named
 * by its entry (src/engine-thread.ts), which the composition root hands to threadCalls; a domain
 * declares only the calls it makes, so nothing below the entry imports it.
 * A thread that dies fails the calls it held; the next call starts a new one.
 */
import { parentPort, Worker } from "node:worker_threads";
import { AppError, type ErrorCode, errorCatalogue } from "./errors.ts";

/** A thread's work: functions of one input, copied there and back (structured clone): plain data only. */
// biome-ignore lint/suspicious/noExplicitAny: any input type; a call's own is read back by Calls.
export type Work = Record<string, (input: any) => unknown>;

/** The calls into a thread serving `W`: each of its functions, run there. */
export type Calls<W extends Work> = {
  readonly [K in keyof W]: (input: Parameters<W[K]>[0]) => Promise<Awaited<ReturnType<W[K]>>>;
};

interface Request {
  id: number;
  name: string;
  input: unknown;
}

type Reply =
  | { id: number; out: unknown }
  | { id: number; error: { message: string; code?: string; details?: unknown } };

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** The calls into the thread `entry` starts, started on the first call. */
export function threadCalls<W extends Work>(entry: URL): Calls<W> {
  let worker: Worker | null = null;
  const pending = new Map<number, Pending>();
  let nextId = 0;

  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    worker = null;
  };

  const start = (): Worker => {
    const w = new Worker(entry);
    w.on("message", (reply: Reply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if ("out" in reply) p.resolve(reply.out);
      else {
        const { code, message, details } = reply.error;
        p.reject(
          code && code in errorCatalogue ? new AppError(code as ErrorCode, message, details) : new Error(message),
        );
      }
      // Idle, the thread does not keep a stopping server alive.
      if (pending.size === 0) w.unref();
    });
    w.on("error", (err: unknown) => failAll(err instanceof Error ? err : new Error(String(err))));
    w.on("exit", (code) => {
      if (worker === w) failAll(new Error(`A worker thread stopped (exit code ${code}): ${entry.pathname}`));
    });
    return w;
  };

  const call = (name: string, input: unknown): Promise<unknown> => {
    worker ??= start();
    // Held while a call runs; a server stopping mid-call exits once it is done.
    worker.ref();
    const id = nextId++;
    const w = worker;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      w.postMessage({ id, name, input } satisfies Request);
    });
  };

  // Every name is a call: the work's names are the entry's, which this side does not load. Not
  // "then": the calls are no promise, and awaiting an object that holds them must not post one.
  return new Proxy({} as Calls<W>, {
    get: (_, name) => (typeof name === "string" && name !== "then" ? (input: unknown) => call(name, input) : undefined),
  });
}

/** Serves `work` on this thread's port: each call's result, or its error, sent back. */
export function serveCalls(work: Work): void {
  parentPort?.on("message", async ({ id, name, input }: Request) => {
    let reply: Reply;
    try {
      reply = { id, out: await work[name]!(input) };
    } catch (err) {
      const e = err as { message?: string; code?: string; details?: unknown };
      reply = { id, error: { message: e?.message ?? String(err), code: e?.code, details: e?.details } };
    }
    parentPort?.postMessage(reply);
  });
}
