/**
 * Time to a 50-question exam against the fake Ollama with a fixed latency per model call, at
 * several EXAM_CONCURRENCY values, showing that the exam's batches run in parallel.
 *
 *   bun bench/materials/run.ts [--latency-ms 250] [--size 50] [--batch 5] [--concurrency 1,2,4,8,12]
 */
import { rmSync } from "node:fs";
import { composeServices } from "../../src/compose.ts";
import { loadConfig } from "../../src/config.ts";
import { courseHead } from "../../src/courses/read.ts";
import { openStore } from "../../src/db/open.ts";
import { createLogger } from "../../src/log.ts";
import { generateExam } from "../../src/materials/exam.ts";
import { createKey } from "../../src/tenants/keys.ts";
import { startFakeOllama } from "../../test/helpers/fake-ollama.ts";
import { tempDir } from "../../test/helpers/server.ts";
import { examResponder } from "../../test/materials/exam-responder.ts";
import { BIOLOGY, insertRichCourse, PROBABILITY } from "../../test/materials/fixtures.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const latencyMs = Number(arg("--latency-ms", "250"));
const size = Number(arg("--size", "50"));
const batch = arg("--batch", "5");
const levels = arg("--concurrency", "1,2,4,8,12").split(",").map(Number);

const fake = startFakeOllama({ latencyMs });
fake.respondWith(examResponder());

/** Most calls in flight at once: each call occupies [arrival, arrival + latency] at the fake. */
function peakInFlight(arrivals: number[]): number {
  const events = arrivals
    .flatMap((t) => [[t, 1] as const, [t + latencyMs, -1] as const])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of events) {
    now += d;
    peak = Math.max(peak, now);
  }
  return peak;
}

const rows: string[][] = [];
for (const concurrency of levels) {
  const dataDir = tempDir("cf-bench-materials-");
  const cfg = loadConfig({
    DATA_DIR: dataDir,
    LLM_PROVIDER: "ollama",
    OLLAMA_HOST: fake.url,
    LLM_MODEL: "llama3.2",
    EXAM_BATCH_SIZE: batch,
    EXAM_CONCURRENCY: String(concurrency),
    EMBEDDER: "builtin",
  });
  const store = await openStore(cfg);
  const svc = await composeServices(cfg, { ...store, node: "bench" }, createLogger("error"));
  const apiKey = (await createKey(svc.sql, { tenant: "bench", env: "production" })).key;
  const courseId = await insertRichCourse(
    dataDir,
    { apiKey, externalUserId: "bench" },
    { chapters: [...BIOLOGY, ...PROBABILITY], model: "llama3.2" },
  );
  const before = fake.generations().length;
  const started = performance.now();
  const { exam } = await generateExam(svc, await courseHead(svc.sql, courseId), { examSize: size });
  const ms = performance.now() - started;
  const calls = fake.generations().slice(before);
  const sequential = calls.length * latencyMs;
  rows.push([
    String(concurrency),
    String(exam.total),
    String(calls.length),
    String(peakInFlight(calls.map((c) => c.at))),
    (ms / 1000).toFixed(2),
    (sequential / 1000).toFixed(2),
    `${(sequential / ms).toFixed(1)}x`,
  ]);
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
await fake.close();

const head = ["EXAM_CONCURRENCY", "questions", "model calls", "peak in flight", "seconds", "sequential s", "speed-up"];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(" | ")} |`;
console.log(
  `\n${size}-question exam, 5 chapters (2 quantitative), batches of ${batch}, fake Ollama at ${latencyMs} ms per call\n`,
);
console.log(line(head));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of rows) console.log(line(r));
