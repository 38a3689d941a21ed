/**
 * One generation per cache key at a time in this process: concurrent identical requests await
 * the same promise instead of calling the model again. Across processes the table's unique key
 * (INSERT OR IGNORE, then re-read) keeps the first result.
 */
const inFlight = new Map<string, Promise<unknown>>();

/** `joined` is true for callers that waited on a generation another request started. */
export async function singleFlight<T>(key: string, run: () => Promise<T>): Promise<{ value: T; joined: boolean }> {
  const running = inFlight.get(key) as Promise<T> | undefined;
  if (running) return { value: await running, joined: true };
  const started = run().finally(() => inFlight.delete(key));
  inFlight.set(key, started);
  return { value: await started, joined: false };
}

/**
 * The stored material of `key` when there is one; otherwise made once (concurrent callers join the
 * making), with the store read again first and read back after, so a row another process stored wins.
 */
export async function cachedOrMade<T extends object>(
  key: string,
  read: () => T | null,
  make: () => Promise<void>,
): Promise<T & { from_cache: boolean }> {
  const cached = read();
  if (cached) return { ...cached, from_cache: true };
  const { value, joined } = await singleFlight(key, async () => {
    const again = read();
    if (again) return again;
    await make();
    return read()!;
  });
  return { ...value, from_cache: joined };
}
