/**
 * Wall time of a 20-chapter topic course, end to end through the real server (sync mode), against
 * the fake Ollama answering every call after a fixed latency, at several CHAPTER_CONCURRENCY
 * settings. With chapters in parallel the wall time approaches
 *   outline + ceil(20 / parallelism) × latency + study guide,
 * and what is left over is our own overhead (HTTP, queue, retrieval, validation, commits).
 *
 *   bun bench/generate/run.ts [--latency-ms 250] [--chapters 20] [--parallelism 1,4,8,20]
 */
import { parseArgs } from "node:util";
import { startFakeOllama } from "../../test/helpers/fake-ollama.ts";
import { call, startServer } from "../../test/helpers/server.ts";

const { values } = parseArgs({
  options: {
    "latency-ms": { type: "string", default: "250" },
    chapters: { type: "string", default: "20" },
    parallelism: { type: "string", default: "1,4,8,20" },
  },
});
const latency = Number(values["latency-ms"]);
const chapters = Number(values.chapters);
const levels = values.parallelism!.split(",").map(Number);

const fake = startFakeOllama({ latencyMs: latency });
const rows: string[][] = [];

for (const p of levels) {
  const srv = await startServer({
    env: {
      LLM_PROVIDER: "ollama",
      OLLAMA_HOST: fake.url,
      CHAPTER_CONCURRENCY: String(p),
      RATE_LIMIT_PER_MINUTE: "100000",
    },
  });
  try {
    const key = await srv.createKey("bench", "production");
    const callsBefore = fake.generations().length;
    const started = performance.now();
    const r = await call(srv.url, "/v2/courses/generate?mode=sync", {
      key,
      user: "bench",
      json: { topic: "The history and science of timekeeping", num_chapters: chapters },
    });
    const wall = performance.now() - started;
    if (r.status !== 200) throw new Error(`generation failed: ${r.status} ${r.text}`);
    const modelCalls = fake.generations().length - callsBefore;
    // Outline, then the chapters in waves of `p`, then the study guide: each wave costs one latency.
    const waves = 1 + Math.ceil(chapters / p) + 1;
    const ideal = waves * latency;
    const overhead = wall - ideal;
    rows.push([
      String(p),
      String(modelCalls),
      (wall / 1000).toFixed(2),
      (ideal / 1000).toFixed(2),
      `${Math.round(overhead)}`,
      `${(overhead / (chapters + 2)).toFixed(1)}`,
      (((chapters + 2) * latency) / wall).toFixed(1),
    ]);
  } finally {
    await srv.stop();
  }
}
await fake.close();

const header = [
  "parallelism",
  "model calls",
  "wall s",
  "ideal s",
  "overhead ms",
  "overhead ms/call",
  "speed-up vs serial model time",
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(" | ")} |`;
console.log(
  `\n${chapters}-chapter course, fake Ollama latency ${latency} ms per call; ideal = (1 outline + ceil(${chapters}/parallelism) + 1 study guide) × latency\n`,
);
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of rows) console.log(line(r));
