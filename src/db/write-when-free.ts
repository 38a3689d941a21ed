/**
 * A write transaction on the server's connection that waits for the database's write lock without
 * holding the event loop. Extraction processes and the extractive engine's thread write chunks over
 * connections of their own; with busy_timeout alone, a commit of the server's waited for them in
 * SQLite's busy handler, which sleeps in the calling thread (1 ms to 100 ms at a time), and every
 * request waited with it. Here the lock is asked for without waiting, and while another connection
 * holds it the event loop runs other work for a moment and asks again; past `patienceMs` the write
 * falls back to the connection's busy_timeout, as before.
 */
import type { Database } from "bun:sqlite";

const RETRY_MS = 2;

const isBusy = (err: unknown) => (err as { code?: unknown } | null)?.code === "SQLITE_BUSY";

export async function writeWhenFree<T>(sqlite: Database, write: () => T, patienceMs = 5_000): Promise<T> {
  const transaction = sqlite.transaction(write);
  const { timeout } = sqlite.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()!;
  const deadline = performance.now() + patienceMs;
  while (performance.now() < deadline) {
    sqlite.run("PRAGMA busy_timeout = 0");
    try {
      return transaction.immediate();
    } catch (err) {
      if (!isBusy(err)) throw err;
    } finally {
      sqlite.run(`PRAGMA busy_timeout = ${timeout}`);
    }
    await Bun.sleep(RETRY_MS);
  }
  return transaction.immediate();
}
