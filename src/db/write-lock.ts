/**
 * Waiting for SQLite's write lock without sleeping the server's thread. SQLite's busy handler
 * sleeps in the calling thread (1 ms to 100 ms at a time) while another connection (an extraction
 * process, the engine's thread) holds the lock, and every request would wait with it. Here the
 * lock is asked for without waiting, and while another connection holds it the event loop runs
 * other work and asks again after 2 ms, doubling to 32 ms (an extraction process commits a turn's
 * files at once, holding the lock for a while, and each ask costs three statements); past the
 * patience the connection's busy_timeout waits, as a lone statement would.
 */
import type { Database } from "bun:sqlite";

const FIRST_RETRY_MS = 2;
const MAX_RETRY_MS = 32;

export const isBusy = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === "SQLITE_BUSY";

/**
 * Runs `attempt`, which begins a write transaction and throws SQLITE_BUSY only when the lock was
 * not had, until it gets the lock or `patientUntil()` (a `performance.now()` time) has passed.
 */
export async function withWriteLock<T>(db: Database, attempt: () => T, patientUntil: () => number): Promise<T> {
  let retryMs = FIRST_RETRY_MS;
  while (performance.now() < patientUntil()) {
    const { timeout } = db.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()!;
    db.run("PRAGMA busy_timeout = 0");
    try {
      return attempt();
    } catch (err) {
      if (!isBusy(err)) throw err;
    } finally {
      db.run(`PRAGMA busy_timeout = ${timeout}`);
    }
    await Bun.sleep(retryMs);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  }
  return attempt();
}
