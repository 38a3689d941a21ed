/**
 * A write transaction on the server's connection that waits for the database's write lock without
 * holding the event loop. Extraction processes and the extractive engine's thread write chunks over
 * connections of their own; with busy_timeout alone, a commit of the server's waited for them in
 * SQLite's busy handler, which sleeps in the calling thread (1 ms to 100 ms at a time), and every
 * request waited with it. Here the lock is waited for as `withWriteLock` does (write-lock.ts, shared
 * with the seam's transactions); past `patienceMs` the write falls back to the connection's
 * busy_timeout, as before.
 *
 * Writes asked for while others wait for the lock are committed with them, in one transaction:
 * documents of a batch end one after another while an extraction process writes, and one commit
 * (and one caller asking for the lock) costs less than one each. Each write runs in a savepoint of
 * its own, so one that throws is undone and rejected alone; a commit that fails rejects them all.
 */
import type { Database } from "bun:sqlite";
import { isBusy, withWriteLock } from "./write-lock.ts";

interface Pending {
  write: () => unknown;
  deadline: number;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/** The writes waiting for each connection's lock; a connection is present while one caller asks for it. */
const waiting = new Map<Database, Pending[]>();

export function writeWhenFree<T>(sqlite: Database, write: () => T, patienceMs = 5_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const pending = {
      write,
      deadline: performance.now() + patienceMs,
      resolve: resolve as (value: unknown) => void,
      reject,
    };
    const queue = waiting.get(sqlite);
    if (queue) queue.push(pending);
    else {
      waiting.set(sqlite, [pending]);
      void commitWaiting(sqlite);
    }
  });
}

/** Commits the connection's waiting writes, those that arrive meanwhile included, until none is left. */
async function commitWaiting(sqlite: Database): Promise<void> {
  const queue = waiting.get(sqlite)!;
  while (queue.length > 0) {
    let batch: Pending[] = [];
    let outcomes: Outcome[];
    try {
      outcomes = await withWriteLock(
        sqlite,
        () => {
          batch = [...queue];
          return commitBatch(sqlite, batch);
        },
        () => Math.min(...queue.map((p) => p.deadline)),
      );
    } catch (err) {
      outcomes = batch.map(() => ({ ok: false, err }));
    }
    queue.splice(0, batch.length);
    batch.forEach((p, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) p.resolve(outcome.value);
      else p.reject(outcome.err);
    });
  }
  waiting.delete(sqlite);
}

/** One IMMEDIATE transaction of the batch's writes, each in a savepoint; throws SQLITE_BUSY only before any ran. */
function commitBatch(sqlite: Database, batch: readonly Pending[]): Outcome[] {
  const outcomes: Outcome[] = [];
  try {
    sqlite
      .transaction(() => {
        for (const p of batch) {
          try {
            outcomes.push({ ok: true, value: sqlite.transaction(p.write)() });
          } catch (err) {
            outcomes.push({ ok: false, err });
          }
        }
      })
      .immediate();
  } catch (err) {
    if (isBusy(err) && outcomes.length === 0) throw err;
    return batch.map(() => ({ ok: false, err }));
  }
  return outcomes;
}
