/** The zip writer reads its sources only as the client reads the archive, and writes a valid zip. */
import { expect, test } from "bun:test";
import { unzipSync } from "fflate";
import { type ZipEntry, zipStream } from "../../src/exports/zip-stream.ts";
import { openZip } from "./unzip.ts";

test("entries are pulled one at a time as the stream is read; the whole archive unzips to the same bytes", async () => {
  let started = 0;
  const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7919) % 251);
  async function* chunks(): AsyncIterable<Uint8Array> {
    for (let at = 0; at < big.length; at += 64 * 1024) yield big.subarray(at, at + 64 * 1024);
  }
  function* entries(): Iterable<ZipEntry> {
    started++;
    yield { name: "a.txt", data: "first" };
    started++;
    yield { name: "audio/b.mp3", data: chunks(), compress: false };
    started++;
    yield { name: "c.md", data: "# last" };
  }
  const reader = zipStream(entries()).getReader();
  const parts: Uint8Array[] = [];
  const first = await reader.read();
  parts.push(first.value!);
  // After the first chunk only the first entry has been asked for; nothing was built ahead.
  expect(started).toBe(1);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  expect(started).toBe(3);
  const zip = Buffer.concat(parts);
  const files = openZip(new Uint8Array(zip));
  expect(Object.keys(files)).toEqual(["a.txt", "audio/b.mp3", "c.md"]);
  expect(Buffer.compare(files["audio/b.mp3"]!, big)).toBe(0);
  expect(new TextDecoder().decode(unzipSync(new Uint8Array(zip))["c.md"])).toBe("# last");
});

test("an unsafe or repeated entry name fails the stream instead of being written", async () => {
  for (const names of [
    ["ok.txt", "../escape.txt"],
    ["same.txt", "same.txt"],
  ]) {
    const stream = zipStream(names.map((name) => ({ name, data: "x" })));
    await expect(new Response(stream).arrayBuffer()).rejects.toThrow(/unsafe archive entry name|duplicate zip entry/);
  }
});
