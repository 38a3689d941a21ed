/**
 * One generation per cache key at a time: concurrent identical requests await the same promise
 * instead of calling the model again. In one process an in-memory map joins them; across
 * PostgreSQL nodes the seam's lock on the key makes a second node wait for the first and then
 * find its row. The table's unique key (insert, conflict ignored, then re-read) keeps the first
 * result whatever happens.
 */
import type { Sql } from "../db/sql.ts";

const inFlight = new Map<string, Promise<unknown>>();

/** `joined` is true for callers that waited on a generation another request of this process started. */
export async function singleFlight<T>(key: string, run: () => Promise<T>): Promise<{ value: T; joined: boolean }> {
  const running = inFlight.get(key) as Promise<T> | undefined;
  if (running) return { value: await running, joined: true };
  const started = run().finally(() => inFlight.delete(key));
  inFlight.set(key, started);
  return { value: await started, joined: false };
}

/**
 * `fn` holding `key` across nodes: on PostgreSQL inside a transaction that took the key's lock, so
 * another node's `fn` of the same key starts when this one has committed; `fn` is handed that
 * transaction and runs its queries there. SQLite is one process, which the in-memory map already
 * serves, and its seam transactions must not await a model call, so there `fn` runs as it is.
 */
export function holdingKey<T>(db: Sql, key: string, fn: (db: Sql) => Promise<T>): Promise<T> {
  if (db.dialect === "sqlite") return fn(db);
  return db.transaction(async (tx) => {
    await tx.lock(`material:${key}`);
    return fn(tx);
  });
}

/**
 * The stored material of `key` when there is one; otherwise made once, with the store read again
 * under the key first and read back after, so a material another request or node stored wins.
 * `made` is false when the read under the key found it.
 */
export function madeOnce<T>(
  db: Sql,
  key: string,
  read: (db: Sql) => Promise<T | null>,
  make: (db: Sql) => Promise<void>,
): Promise<{ value: T; made: boolean }> {
  return holdingKey(db, key, async (tx) => {
    const again = await read(tx);
    if (again) return { value: again, made: false };
    await make(tx);
    return { value: (await read(tx))!, made: true };
  });
}

/** As madeOnce, behind a first read and this process's single flight; `from_cache` unless this call made it. */
export async function cachedOrMade<T extends object>(
  db: Sql,
  key: string,
  read: (db: Sql) => Promise<T | null>,
  make: (db: Sql) => Promise<void>,
): Promise<T & { from_cache: boolean }> {
  const cached = await read(db);
  if (cached) return { ...cached, from_cache: true };
  const { value, joined } = await singleFlight(key, () => madeOnce(db, key, read, make));
  return { ...value.value, from_cache: joined || !value.made };
}
