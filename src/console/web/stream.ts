/**
 * Reads a text/event-stream response body, event by event (eventsource-parser does the parsing).
 * Events that arrive together are still handed over one at a time with a render between them, so
 * a person sees every step (a chapter running before it is completed), however fast the server is.
 */
import { createParser } from "eventsource-parser";

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

export async function readEvents(res: Response, onEvent: (event: string, data: unknown) => void): Promise<void> {
  const pending: [string, unknown][] = [];
  const parser = createParser({ onEvent: (e) => pending.push([e.event ?? "message", JSON.parse(e.data)]) });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(value);
    for (const [event, data] of pending.splice(0)) {
      onEvent(event, data);
      await nextTask();
    }
  }
}
