/**
 * A write transaction through the seam that, on SQLite, waits for the database's write lock without
 * holding the event loop and shares its commit with the writes that waited beside it. Extraction
 * processes and the extractive engine's thread write chunks over connections of their own; the
 * seam's transaction waits for the lock as `withWriteLock` does (write-lock.ts) rather than in
 * SQLite's busy handler, which sleeps the server's thread.
 *
 * Writes asked for while others wait for the lock are committed with them, in one transaction:
 * documents of a batch end one after another while an extraction process writes, and one commit
 * (and one caller asking for the lock) costs less than one each. Each write runs in a savepoint of
 * its own, so one that throws is undone and rejected alone; a commit that fails rejects them all,
 * and an error that ends the transaction (SQLite's full disk) rejects the writes it undid.
 * PostgreSQL locks rows, not the database: there each write is a transaction of its own.
 */
import { type Sql, SqliteSql } from "./sql.ts";

type Write = (tx: Sql) => Promise<unknown>;

interface Pending {
  write: Write;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/** The writes waiting for each SQLite seam's lock; a seam is present while one commit is asked for. */
const waiting = new Map<Sql, Pending[]>();

export function writeWhenFree<T>(db: Sql, write: (tx: Sql) => Promise<T>): Promise<T> {
  if (db.dialect === "postgres") return db.transaction(write);
  return new Promise<T>((resolve, reject) => {
    const pending = { write, resolve: resolve as (value: unknown) => void, reject };
    const queue = waiting.get(db);
    if (queue) queue.push(pending);
    else {
      waiting.set(db, [pending]);
      void commitWaiting(db);
    }
  });
}

/** Commits the seam's waiting writes, those that arrive meanwhile included, until none is left. */
async function commitWaiting(db: Sql): Promise<void> {
  const queue = waiting.get(db)!;
  while (queue.length > 0) {
    let batch: Pending[] = [];
    let outcomes: Outcome[];
    try {
      // The transaction's callback runs once the lock is had: the batch is every write asked for by then.
      outcomes = await db.transaction(async (tx) => {
        batch = [...queue];
        const done: Outcome[] = [];
        for (const p of batch) {
          try {
            done.push({ ok: true, value: await tx.transaction(p.write) });
          } catch (err) {
            // SQLite ended the whole transaction itself (a full disk, out of memory): the writes
            // before this one went with it, and those after must not run outside it, where each
            // would commit alone while its caller is told of the batch's failure. They wait for
            // the next round.
            if (!inTransaction(db)) {
              batch = batch.slice(0, done.length + 1);
              throw err;
            }
            done.push({ ok: false, err });
          }
        }
        return done;
      });
    } catch (err) {
      if (batch.length === 0) batch = [...queue];
      outcomes = batch.map(() => ({ ok: false, err }));
    }
    queue.splice(0, batch.length);
    batch.forEach((p, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) p.resolve(outcome.value);
      else p.reject(outcome.err);
    });
  }
  waiting.delete(db);
}

function inTransaction(db: Sql): boolean {
  return !(db instanceof SqliteSql) || db.db.inTransaction;
}
