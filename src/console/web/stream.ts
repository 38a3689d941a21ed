/** Reads a text/event-stream response body, event by event (eventsource-parser does the parsing). */
import { createParser } from "eventsource-parser";

export async function readEvents(res: Response, onEvent: (event: string, data: unknown) => void): Promise<void> {
  const parser = createParser({
    onEvent: (e) => onEvent(e.event ?? "message", JSON.parse(e.data)),
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}
