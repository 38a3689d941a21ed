/**
 * A write transaction on the server's connection that waits for the database's write lock without
 * holding the event loop. Extraction processes and the extractive engine's thread write chunks over
 * connections of their own; with busy_timeout alone, a commit of the server's waited for them in
 * SQLite's busy handler, which sleeps in the calling thread (1 ms to 100 ms at a time), and every
 * request waited with it. Here the lock is asked for without waiting, and while another connection
 * holds it the event loop runs other work for a moment and asks again; past `patienceMs` the write
 * falls back to the connection's busy_timeout, as before.
 *
 * Writes asked for while others wait for the lock are committed with them, in one transaction:
 * documents of a batch end one after another while an extraction process writes, and one commit
 * (and one caller asking for the lock) costs less than one each. Each write runs in a savepoint of
 * its own, so one that throws is undone and rejected alone; a commit that fails rejects them all.
 */
import type { Database } from "bun:sqlite";

// The lock is asked for again after 2 ms, then twice as long each time up to 32 ms: an extraction
// process commits a turn's files at once, holding the lock for a while, and each ask costs three
// statements of the server's thread.
const FIRST_RETRY_MS = 2;
const MAX_RETRY_MS = 32;

const isBusy = (err: unknown) => (err as { code?: unknown } | null)?.code === "SQLITE_BUSY";

interface Pending {
  write: () => unknown;
  deadline: number;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

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
  const { timeout } = sqlite.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()!;
  let retryMs = FIRST_RETRY_MS;
  while (queue.length > 0) {
    const patient = performance.now() < Math.min(...queue.map((p) => p.deadline));
    const batch = [...queue];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; err: unknown })[] = [];
    let busy = false;
    if (patient) sqlite.run("PRAGMA busy_timeout = 0");
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
      // Busy before any write ran: the lock was not had, so ask again; otherwise the commit failed.
      busy = patient && isBusy(err) && outcomes.length === 0;
      outcomes.splice(0, outcomes.length, ...batch.map(() => ({ ok: false as const, err })));
    } finally {
      sqlite.run(`PRAGMA busy_timeout = ${timeout}`);
    }
    if (busy) {
      await Bun.sleep(retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      continue;
    }
    retryMs = FIRST_RETRY_MS;
    queue.splice(0, batch.length);
    batch.forEach((p, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) p.resolve(outcome.value);
      else p.reject(outcome.err);
    });
  }
  waiting.delete(sqlite);
}
