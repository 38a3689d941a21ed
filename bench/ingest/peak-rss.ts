/**
 * Extracts one PDF through extractFile (the server's worker-thread path) in this fresh process and
 * prints, as JSON, the process's peak resident memory (VmHWM, all threads) and the time taken.
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";

const vm = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;

const path = process.argv[2]!;
const baselineRssMb = vm("VmRSS");
const t0 = performance.now();
const result = await extractFile(path, "large.pdf", {
  dataDir: tmpdir(),
  outboundAllow: [],
  youtubeBaseUrl: "",
  ingestWorkers: 1,
  ingestTimeoutMs: 600_000,
  ingestMaxPdfPages: 100_000,
  ingestMaxOcrPages: 50,
});
const ms = performance.now() - t0;
stopExtractionWorkers();
console.log(JSON.stringify({ peakRssMb: vm("VmHWM"), baselineRssMb, ms, pages: result.pages, chars: result.markdown.length }));
