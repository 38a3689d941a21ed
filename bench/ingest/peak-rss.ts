/**
 * Extracts one PDF N times back to back through extractFile (the server's path: extraction
 * processes, two as INGEST_WORKERS defaults to) from this fresh process, `inflight` at a time, and
 * prints, as JSON, the peak resident memory of this process (VmHWM) plus the largest an extraction
 * process reached (sampled by the pool), its RSS before and after the extractions, and the time.
 * Usage: bun bench/ingest/peak-rss.ts <file.pdf> [runs=1] [inflight=1]
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createExtractionPool, extractFile, type IngestConfig } from "../../src/ingest/index.ts";

export interface PeakRss {
  /** This process's peak plus the largest extraction process's: an upper bound of one parse's total. */
  peakRssMb: number;
  /** The largest resident memory an extraction process reached. */
  workerPeakMb: number;
  baselineRssMb: number;
  finalRssMb: number;
  runs: number;
  inflight: number;
  ms: number;
  pages: number | null;
  chars: number;
}

const vm = (field: string): number =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;

const path = process.argv[2]!;
const runs = Math.max(1, Number(process.argv[3] ?? 1));
const inflight = Math.max(1, Number(process.argv[4] ?? 1));
const baselineRssMb = vm("VmRSS");
const t0 = performance.now();
let pages: number | null = null;
let chars = 0;
let started = 0;
const cfg: IngestConfig = {
  dataDir: tmpdir(),
  outboundAllow: [],
  youtubeBaseUrl: "",
  ingestWorkers: 2,
  ingestTimeoutMs: 600_000,
  ingestMaxPdfPages: 100_000,
  ingestMaxOcrPages: 50,
  ingestMaxImagePixels: 40_000_000,
  ingestMaxXmlMb: 10,
  ingestWorkerMemoryMb: 0,
  ingestTenantWorkers: 2,
};
const pool = createExtractionPool(cfg);
// As uploads do: each result is used and dropped before that uploader's next file arrives.
async function uploader(): Promise<void> {
  while (started++ < runs) {
    const result = await extractFile(path, "large.pdf", cfg, { pool });
    pages = result.pages;
    chars = result.markdown.length;
  }
}
await Promise.all(Array.from({ length: inflight }, uploader));
const ms = performance.now() - t0;
const finalRssMb = vm("VmRSS");
const workerPeakMb = pool.stats().peakWorkerMb;
pool.close();
const report: PeakRss = {
  peakRssMb: vm("VmHWM") + workerPeakMb,
  workerPeakMb,
  baselineRssMb,
  finalRssMb,
  runs,
  inflight,
  ms,
  pages,
  chars,
};
console.log(JSON.stringify(report));
