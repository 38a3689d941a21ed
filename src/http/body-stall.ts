/**
 * Request bodies that stop arriving. The server turns its socket idle timeout off for an
 * authenticated write (synchronous work may outlast it), so the body readers keep their own
 * deadline: each chunk must come within `seconds` of the one before, or the request ends with a
 * 408 REQUEST_TIMEOUT. A slow but moving upload is never cut off.
 */
import { requestBodyTimeout } from "../errors.ts";

/** The chunks of `body`, failing with 408 when none arrives for `seconds`; the stream is cancelled then. */
export async function* chunksWithin(body: ReadableStream<Uint8Array>, seconds: number): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(requestBodyTimeout(seconds)), seconds * 1000);
      });
      try {
        const { done, value } = await Promise.race([reader.read(), stalled]);
        if (done) return;
        yield value;
      } finally {
        clearTimeout(timer);
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** A restartable timer for streams read by events (busboy): `touch` on each chunk, `stop` at the end. */
export function stallTimer(seconds: number, onStall: () => void): { touch(): void; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(onStall, seconds * 1000);
  };
  touch();
  return { touch, stop: () => clearTimeout(timer) };
}
