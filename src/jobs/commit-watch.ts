/**
 * Commits of other connections to a SQLite database, seen from this one: a job another process
 * queued (an operator's script, a test writing the database) is announced on that connection's
 * bus, not this one's. `PRAGMA data_version` changes when another connection commits; read on a
 * short timer, it costs microseconds where a look at the queue costs its statements.
 */
import type { Database } from "bun:sqlite";

/** Calls `onCommit` after another connection committed, checking every `everyMs`; returns the stop. */
export function watchOtherCommits(db: Database, everyMs: number, onCommit: () => void): () => void {
  const version = db.query<{ data_version: number }, []>("PRAGMA data_version");
  let seen = version.get()!.data_version;
  const timer = setInterval(() => {
    const now = version.get()!.data_version;
    if (now === seen) return;
    seen = now;
    onCommit();
  }, everyMs);
  return () => clearInterval(timer);
}
