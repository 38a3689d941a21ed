/**
 * Hostile files against a real server whose address space is capped (`ulimit -v`, 4 GiB, as the
 * red team ran it): huge-dimension PNGs, a DOCX with more honest XML than its budget and one whose
 * zip directory lies, PDFs whose drawings nest exponentially, a large text file. The DOCX and the
 * text are as large as shows the behaviour (the red team's were 120 MB and 20 MB): the XML past its
 * 10 MB budget, the text past the 8 MB after which the server collects its copies, each read long
 * enough to be seen not to hold other requests. Each source fails
 * with its own clear error (or, for the text, is indexed), other tenants are served meanwhile, and
 * the server process stays alive and under its memory ceiling (README, Operations).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, call, ROOT, startServer, type TestServer } from "../helpers/server.ts";
import { headersFor, withDb } from "./harness.ts";
import { bigText, docxLyingAboutSizes, docxWithXml, hugePng, nestedPdf } from "./hostile-files.ts";

/** The server's documented memory ceiling with default settings (README, Operations). */
const CEILING_MB = 1024;
const ADDRESS_SPACE_KB = 4 * 1024 * 1024;
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

let srv: TestServer;
let hostile: string;
let other: string;

/** Peak resident memory of the server process so far, in MB. */
const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${srv.proc.pid}/status`, "utf8"))![1]) / 1024;

interface Doc {
  id: string;
  filename: string;
  status: string;
  error?: string;
  chunk_count?: number;
}

async function processFiles(
  key: string,
  files: { name: string; type: string; bytes: Uint8Array<ArrayBuffer> }[],
): Promise<Doc[]> {
  const form = new FormData();
  for (const f of files) form.append("files", new Blob([f.bytes], { type: f.type }), f.name);
  const res = await fetch(`${srv.url}/v2/documents/process`, {
    method: "POST",
    headers: headersFor(key, "learner"),
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { documents: Doc[] }).documents;
}

beforeAll(async () => {
  srv = await startServer({
    command: ["bash", "-c", `ulimit -v ${ADDRESS_SPACE_KB} && exec "$0" "$@"`, BUN, join(ROOT, "src/main.ts")],
    env: { RATE_LIMIT_PER_MINUTE: "1000000" },
  });
  hostile = await srv.createKey("hostile-tenant", "production");
  other = await srv.createKey("other-tenant", "production");
  // The other tenant's learner exists before its first read.
  expect((await call(srv.url, "/v2/users", { key: other, json: { external_id: "learner" } })).status).toBe(201);
}, 300_000);

afterAll(async () => {
  await srv?.stop();
});

test("item 2: PNGs declaring 25000 x 25000 pixels are refused from their header, never decoded", async () => {
  const png = hugePng(25_000);
  const docs = await processFiles(hostile, [
    { name: "wall-1.png", type: "image/png", bytes: png },
    { name: "wall-2.png", type: "image/png", bytes: png },
  ]);
  for (const d of docs) {
    expect(d.status).toBe("error");
    expect(d.error).toContain("25000 x 25000 pixels");
  }
  expect(peakMb()).toBeLessThan(CEILING_MB);
}, 300_000);

test("item 1: a DOCX with 12 MB of honest XML, and one whose zip directory lies, fail on the XML budget", async () => {
  const docs = await processFiles(hostile, [
    { name: "honest-12mb-xml.docx", type: DOCX, bytes: docxWithXml(12) },
    { name: "lying-directory.docx", type: DOCX, bytes: docxLyingAboutSizes(12) },
  ]);
  expect(docs[0]!.status).toBe("error");
  expect(docs[0]!.error).toMatch(/holds 1[23] MB of document XML; at most 10 MB is read/);
  // Declared sizes passed the directory check: the bytes were counted while inflating.
  expect(docs[1]!.status).toBe("error");
  expect(docs[1]!.error).toContain("likely zip bomb");
  expect(peakMb()).toBeLessThan(CEILING_MB);
}, 300_000);

test("item 5: one tenant's exponential PDFs hold one extraction process; another tenant's upload is served before any of them ends", async () => {
  const pdf = nestedPdf(12, 4, 600);
  // Two fill the pool's two processes (INGEST_WORKERS' default) unless per-tenant turns keep one for
  // the other tenant; a third repeated the case for as much CPU again (each parses to its item limit).
  const hostileRun = processFiles(
    hostile,
    [1, 2].map((n) => ({ name: `nested-${n}.pdf`, type: "application/pdf", bytes: pdf })),
  );
  const hostileFinished = () =>
    withDb(
      srv.dataDir,
      (db) =>
        db
          .query<{ n: number }, []>(
            "SELECT count(*) AS n FROM documents WHERE filename LIKE 'nested-%' AND status != 'processing'",
          )
          .get()!.n,
    );
  // The hostile files are recorded, then handed to the pool; the other tenant comes after them.
  for (
    let i = 0;
    i < 200 &&
    withDb(
      srv.dataDir,
      (db) =>
        db.query<{ n: number }, []>("SELECT count(*) AS n FROM documents WHERE filename LIKE 'nested-%'").get()!.n,
    ) < 2;
    i++
  ) {
    await Bun.sleep(50);
  }
  await Bun.sleep(500);

  const [note] = await processFiles(other, [
    {
      name: "tides.md",
      type: "text/markdown",
      bytes: new TextEncoder().encode("# Tides\n\nThe Moon pulls the oceans.\n"),
    },
  ]);
  expect(note!.status).toBe("ready");
  // Each hostile PDF takes seconds to reach its budget: without per-tenant turns the note would have waited for one.
  expect(hostileFinished()).toBe(0);

  for (const d of await hostileRun) {
    expect(d.status).toBe("error");
    expect(d.error).toContain("pieces of text on page 1");
  }
}, 300_000);

test("item 4: a 10 MB text file is indexed while /health and another tenant's reads keep answering", async () => {
  let done = false;
  const started = performance.now();
  const upload = processFiles(hostile, [{ name: "big.txt", type: "text/plain", bytes: bigText(10) }]).finally(
    () => (done = true),
  );
  const answers: { status: number; ms: number }[] = [];
  while (!done) {
    for (const req of [
      () => fetch(`${srv.url}/health`),
      () => fetch(`${srv.url}/v2/documents`, { headers: headersFor(other, "learner") }),
    ]) {
      const started = performance.now();
      const status = await req().then(
        (r) => r.status,
        () => 0,
      );
      answers.push({ status, ms: performance.now() - started });
    }
    await Bun.sleep(100);
  }
  const [doc] = await upload;
  const took = performance.now() - started;
  expect(doc!.status).toBe("ready");
  expect(doc!.chunk_count!).toBeGreaterThan(1000);
  expect(answers.length).toBeGreaterThan(10);
  expect(answers.filter((a) => a.status !== 200)).toEqual([]);
  // Before the fix every read waited out the whole indexing; relative to it, a loaded machine slows both alike.
  expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(took / 2);
  expect(peakMb()).toBeLessThan(CEILING_MB);
}, 400_000);

test("the server is still the same process, alive, and its peak memory stayed under the ceiling", async () => {
  expect(srv.proc.exitCode).toBeNull();
  expect((await fetch(`${srv.url}/health`)).status).toBe(200);
  expect(peakMb()).toBeLessThan(CEILING_MB);
  expect(srv.output()).not.toContain("Out of memory");
});
