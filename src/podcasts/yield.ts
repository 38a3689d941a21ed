/**
 * Lets pending I/O (HTTP requests share this process) run between CPU-heavy steps. setImmediate,
 * unlike a resolved promise, lets the event loop poll for I/O before continuing.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
