/** Server-Sent Events for stream-mode generation, and keeping long (sync, stream) requests open. */
import type { FollowedEvent } from "../../courses/events.ts";

export interface SseMessage {
  event: string;
  data: unknown;
}

/**
 * Bun closes a connection idle for 10 s by default; a sync generation or a quiet stream waits far
 * longer, so these requests opt out (streams still send keepalive comments for proxies).
 */
export function keepOpen(server: unknown, request: Request): void {
  (server as { timeout?: (r: Request, seconds: number) => void } | null)?.timeout?.(request, 0);
}

const encoder = new TextEncoder();

function frame(id: number, m: SseMessage): Uint8Array {
  return encoder.encode(`id: ${id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`);
}

/**
 * A text/event-stream response: `first` messages, then one message per generation event (named by
 * its type, the type field dropped from the data). Closing the connection only stops the stream:
 * `abort` is signalled, and the job it follows carries on.
 */
export function sseResponse(
  first: SseMessage[],
  events: (signal: AbortSignal) => AsyncIterable<FollowedEvent>,
  opts: { keepaliveMs: number; headers: Record<string, string> },
): Response {
  const abort = new AbortController();
  let keepalive: Timer | null = null;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let id = 0;
      const send = (chunk: Uint8Array) => {
        if (!abort.signal.aborted) controller.enqueue(chunk);
      };
      keepalive = setInterval(() => send(encoder.encode(": keepalive\n\n")), opts.keepaliveMs);
      try {
        for (const m of first) send(frame(++id, m));
        for await (const e of events(abort.signal)) {
          const { type, ...data } = e;
          send(frame(++id, { event: type, data }));
        }
      } finally {
        if (keepalive) clearInterval(keepalive);
        if (!abort.signal.aborted) controller.close();
      }
    },
    cancel() {
      abort.abort();
      if (keepalive) clearInterval(keepalive);
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      ...opts.headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
