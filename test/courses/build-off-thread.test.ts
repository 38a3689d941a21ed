/**
 * A course build does not hold the server (#32): the built-in engine's builders, and the planning
 * of a course from its sources with any engine, run in a worker thread, so /health, asked again and
 * again while a book becomes a course, answers each time in a small part of the work's time. (Built
 * on the server's own thread, the answer waited for each builder call, or for the whole planning:
 * most of the time measured.) So do matching a topic to the learner's documents, a topic course's
 * chapters, and each written chapter's grounding and indexing. Bounds relative to the work itself,
 * so a loaded machine slows both alike. The server runs in this process (its thread is the test's):
 * work held on that thread would hold the test's requests just as it held a process's.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type FakeOllama, startFakeOllama } from "../helpers/fake-ollama.ts";
import { call, ROOT } from "../helpers/server.ts";
import { bigText } from "../reliability/hostile-files.ts";
import { filesForm, readSse } from "./helpers.ts";

/** A book, docx4j's getting-started guide; the bash manual (a 1 MB web page) showed the same for more CPU. */
const BOOK = join(ROOT, "../shared/corpus/books/docx4j-getting-started.docx");
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

let srv: TestApp;
let key: string;

beforeAll(async () => {
  srv = await startApp({ listen: true, env: { LLM_PROVIDER: "extractive", RATE_LIMIT_PER_MINUTE: "100000" } });
  key = await srv.createKey("acme", "production");
}, 120_000);
afterAll(() => srv?.stop());

test("/health answers promptly all through a book's course build", async () => {
  const form = filesForm({ num_chapters: "2" }, [
    { name: "docx4j.docx", content: await Bun.file(BOOK).bytes(), type: DOCX },
  ]);
  const started = performance.now();
  let building = true;
  const build = call(srv.url, "/v2/courses/generate-from-files?mode=sync", { key, user: "reader", body: form }).finally(
    () => {
      building = false;
    },
  );
  const waits: number[] = [];
  while (building) {
    const t0 = performance.now();
    const res = await fetch(`${srv.url}/health`);
    await res.arrayBuffer();
    waits.push(performance.now() - t0);
    await Bun.sleep(20);
  }
  const made = await build;
  const took = performance.now() - started;
  expect(made.status).toBe(200);
  expect(took).toBeGreaterThan(1_000);
  expect(waits.length).toBeGreaterThan(10);
  expect(Math.max(...waits)).toBeLessThan(took * 0.1);
}, 600_000);

/** A long handbook: plain prose cut into parts and sections, so planning has a structure to read. */
function handbook(mb: number): Uint8Array {
  const paragraphs = new TextDecoder().decode(bigText(mb)).split("\n\n").filter(Boolean);
  const out = ["# A long handbook"];
  paragraphs.forEach((p, i) => {
    if (i % 400 === 0) out.push(`## Part ${i / 400 + 1}`);
    if (i % 40 === 0) out.push(`### Section ${i / 40 + 1}`);
    out.push(p);
  });
  return new TextEncoder().encode(out.join("\n\n"));
}

test("/health answers promptly while a long source's course is planned, with a model", async () => {
  // A model that answers at once: from the source's `document` event to the `outline` event the
  // time is planning's (reading the whole source, its sections and themes), which once ran on the
  // server's thread and held every request for all of it.
  const fake: FakeOllama = startFakeOllama();
  const modelSrv = await startApp({
    env: { LLM_PROVIDER: "ollama", OLLAMA_HOST: fake.url, RATE_LIMIT_PER_MINUTE: "100000" },
  });
  try {
    const modelKey = await modelSrv.createKey("acme", "production");
    const form = filesForm({ num_chapters: "20" }, [
      { name: "handbook.md", content: handbook(1.5), type: "text/markdown" },
    ]);
    const res = await modelSrv.fetch("/v2/courses/generate-from-files?mode=stream", {
      method: "POST",
      headers: { "x-api-key": modelKey, "x-external-user-id": "reader" },
      body: form,
    });
    expect(res.status).toBe(200);
    const marks: Record<string, number> = {};
    let streaming = true;
    const stream = readSse(res, (e) => {
      marks[e.event] ??= performance.now();
      return e.event === "outline";
    }).finally(() => {
      streaming = false;
    });
    const waits: { from: number; to: number }[] = [];
    while (streaming) {
      const from = performance.now();
      await (await modelSrv.fetch("/health")).arrayBuffer();
      waits.push({ from, to: performance.now() });
      await Bun.sleep(20);
    }
    await stream;
    const [document, outline] = [marks.document!, marks.outline!];
    expect(document).toBeDefined();
    expect(outline).toBeDefined();
    const planning = outline - document;
    const during = waits.filter((w) => w.to > document && w.from < outline).map((w) => w.to - w.from);
    expect(during.length).toBeGreaterThan(5);
    expect(Math.max(...during)).toBeLessThan(planning * 0.25);
  } finally {
    await modelSrv.stop();
    await fake.close();
  }
}, 600_000);

/**
 * A learner's long handbook in which every paragraph speaks of the topic: matching the topic weighs
 * every chunk it may (2,000), and the course's sections are read from the whole handbook. Each
 * paragraph is half a chunk: 4,200 of them make 2,100 chunks, just past that bound.
 */
function tidesHandbook(paragraphs: number): string {
  const words = ["tidal", "currents", "harbour", "pilots", "moon", "gravity", "channel", "vessels", "anchor", "depth"];
  const more = ["charts", "beacons", "estuary", "surge", "ebb", "flood", "mooring", "buoys", "keel", "soundings"];
  const out = ["# Handbook of tidal currents"];
  let x = 7;
  for (let i = 0; i < paragraphs; i++) {
    if (i % 400 === 0) out.push(`## Part ${i / 400 + 1}`);
    if (i % 40 === 0) out.push(`### Tidal currents for harbour pilots, section ${i / 40 + 1}`);
    const sentences: string[] = [];
    for (let k = 0; k < 6; k++) {
      const picked: string[] = ["Tidal", "currents"];
      for (let w = 0; w < 12; w++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        picked.push(((x >>> 16) % 2 === 0 ? words : more)[(x >>> 8) % 10]!);
      }
      sentences.push(`${picked.join(" ")} near the harbour.`);
    }
    out.push(sentences.join(" "));
  }
  return out.join("\n\n");
}

test("/health answers promptly while a topic course is matched, planned and written from a long library", async () => {
  const form = filesForm({}, [{ name: "handbook.md", content: tidesHandbook(4_200), type: "text/markdown" }]);
  const processed = await call(srv.url, "/v2/documents/process", { key, user: "librarian", body: form });
  expect(processed.status).toBe(200);
  expect(processed.body.documents[0].status).toBe("ready");
  // More chunks than matching reads, so the bound on its work is reached.
  expect(processed.body.documents[0].chunk_count).toBeGreaterThan(2_000);

  const started = performance.now();
  let building = true;
  const build = call(srv.url, "/v2/courses/generate?mode=sync", {
    key,
    user: "librarian",
    json: { topic: "tidal currents for harbour pilots", num_chapters: 4 },
  }).finally(() => {
    building = false;
  });
  const waits: number[] = [];
  while (building) {
    const t0 = performance.now();
    await (await fetch(`${srv.url}/health`)).arrayBuffer();
    waits.push(performance.now() - t0);
    await Bun.sleep(20);
  }
  const made = await build;
  const took = performance.now() - started;
  expect(made.status).toBe(200);
  expect(made.body.course.chapters).toHaveLength(4);
  expect(waits.length).toBeGreaterThan(10);
  expect(Math.max(...waits)).toBeLessThan(took * 0.1);
}, 600_000);
