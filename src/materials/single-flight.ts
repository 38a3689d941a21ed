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
