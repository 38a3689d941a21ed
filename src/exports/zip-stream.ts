/**
 * A zip archive written as a stream: each entry is compressed (or, for audio, stored) as its bytes
 * are read, and the next chunk is produced only when the client reads, so an export with hours of
 * podcast audio never sits in memory whole.
 */
import { safeEntryName } from "./names.ts";

export interface ZipEntry {
  /** Path inside the archive; checked by safeEntryName. */
  name: string;
  data: string | Uint8Array | AsyncIterable<Uint8Array>;
  /** false stores the bytes as they are (already-compressed audio). */
  compress?: boolean;
}

const encoder = new TextEncoder();

async function* bytesOf(data: ZipEntry["data"]): AsyncIterable<Uint8Array> {
  if (typeof data === "string") yield encoder.encode(data);
  else if (data instanceof Uint8Array) yield data;
  else yield* data;
}

async function* zipChunks(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>): AsyncGenerator<Uint8Array> {
  // Required on first use, not at server start; a literal name keeps it in the compiled executable.
  const { Zip, ZipDeflate, ZipPassThrough } = require("fflate") as typeof import("fflate");
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else if (chunk.length > 0) ready.push(chunk);
  });
  const take = () => {
    if (failure) throw failure;
    return ready.splice(0);
  };
  const seen = new Set<string>();
  for await (const entry of entries) {
    const name = safeEntryName(entry.name);
    if (seen.has(name)) throw new Error(`duplicate zip entry: ${name}`);
    seen.add(name);
    const file = entry.compress === false ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    zip.add(file);
    for await (const part of bytesOf(entry.data)) {
      file.push(part);
      yield* take();
    }
    file.push(new Uint8Array(0), true);
    yield* take();
  }
  zip.end();
  yield* take();
}

/** The archive as a pull-driven stream; cancelling it (the client went away) stops reading the sources. */
export function zipStream(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>): ReadableStream<Uint8Array> {
  const chunks = zipChunks(entries);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
