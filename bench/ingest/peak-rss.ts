/**
 * Extracts one PDF N times back to back through extractFile (the server's worker-thread path, two
 * threads as INGEST_WORKERS defaults to) in this fresh process, `inflight` at a time, and prints,
 * as JSON, the process's peak resident memory (VmHWM, all threads), its RSS before and after the
 * extractions, and the time taken.
 * Usage: bun bench/ingest/peak-rss.ts <file.pdf> [runs=1] [inflight=1]
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";

export interface PeakRss {
  peakRssMb: number;
  baselineRssMb: number;
  finalRssMb: number;
  runs: number;
  inflight: number;
  ms: number;
  pages: number | null;
  chars: number;
}

const vm = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;

const path = process.argv[2]!;
const runs = Math.max(1, Number(process.argv[3] ?? 1));
const inflight = Math.max(1, Number(process.argv[4] ?? 1));
const baselineRssMb = vm("VmRSS");
const t0 = performance.now();
let pages: number | null = null;
let chars = 0;
let started = 0;
// As uploads do: each result is used and dropped before that uploader's next file arrives.
async function uploader(): Promise<void> {
  while (started++ < runs) {
    const result = await extractFile(path, "large.pdf", {
      dataDir: tmpdir(),
      outboundAllow: [],
      youtubeBaseUrl: "",
      ingestWorkers: 2,
      ingestTimeoutMs: 600_000,
      ingestMaxPdfPages: 100_000,
      ingestMaxOcrPages: 50,
    });
    pages = result.pages;
    chars = result.markdown.length;
  }
}
await Promise.all(Array.from({ length: inflight }, uploader));
const ms = performance.now() - t0;
const finalRssMb = vm("VmRSS");
stopExtractionWorkers();
const report: PeakRss = { peakRssMb: vm("VmHWM"), baselineRssMb, finalRssMb, runs, inflight, ms, pages, chars };
console.log(JSON.stringify(report));
