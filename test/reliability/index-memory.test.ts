/**
 * The server's memory while one large text is indexed (#32). The text is chunked, embedded and
 * written by an extraction process; what it repeats of itself is found in the server's own process
 * (the extractive engine's thread). Read whole, with a JS Map entry and a string per shingle, a
 * 50 MB text took the server to 1.5 GB there. Here a text that repeats its first quarter at its end
 * is processed through HTTP; its repeats must be found, and the server's peak resident
 * memory (VmHWM, reset before the upload) may grow by a bounded amount, memory not time.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { call, startServer, type TestServer } from "../helpers/server.ts";
import { bigText } from "./hostile-files.ts";

const MB = 1024 * 1024;
/** The text's own part; its first quarter follows it again: 4.9 MB, 3,209 chunks, a fifth of them repeats. */
const TEXT_MB = 4;
/**
 * Growth of the server's peak over its resident memory before the upload, measured at load 90 on
 * 2 cores: +64 MB with the detector reading a batch at a time, +175 MB when it read the whole
 * document into a Map (the 50 MB text's 1.5 GB, scaled).
 */
const GROWTH_BOUND_MB = 110;

let srv: TestServer;
let key: string;

const status = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${srv.proc.pid}/status`, "utf8"))![1]) / 1024;

async function processText(name: string, bytes: Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  form.append("files", new Blob([bytes], { type: "text/plain" }), name);
  const res = await call(srv.url, "/v2/documents/process", { key, user: "reader", body: form });
  expect(res.status).toBe(200);
  const [doc] = res.body.documents as { id: string; status: string; chunk_count: number }[];
  expect(doc!.status).toBe("ready");
  return doc!;
}

beforeAll(async () => {
  srv = await startServer({ env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  key = await srv.createKey("acme", "production");
  // A first long document starts the engine's thread and loads the code every upload uses.
  await processText("warm-up.txt", bigText(0.1));
}, 120_000);
afterAll(() => srv?.stop());

test("a large text's repeats are found without the server's memory growing with the text", async () => {
  const text = new TextDecoder().decode(bigText(TEXT_MB));
  const quarter = text.slice(0, text.indexOf("\n\n", text.length / 4) + 2);
  const bytes = new TextEncoder().encode(`${text}${quarter}`);
  // Resets the peak (VmHWM) to the memory resident now (Linux).
  writeFileSync(`/proc/${srv.proc.pid}/clear_refs`, "5");
  const before = status("VmRSS");
  const doc = await processText("twice.txt", bytes);
  const growth = status("VmHWM") - before;

  expect(doc.chunk_count).toBeGreaterThan(1000);
  const { details } = (await call(srv.url, `/v2/documents/${doc.id}`, { key, user: "reader" })).body;
  expect(details.repeated_words / details.words).toBeCloseTo(1 / 5, 1);
  expect(details.repeated_section_count).toBe(1);
  console.log(
    `${(bytes.length / MB).toFixed(1)} MB text, ${doc.chunk_count} chunks: server peak +${growth.toFixed(0)} MB`,
  );
  expect(growth).toBeLessThan(GROWTH_BOUND_MB);
}, 300_000);
