/** One file parsed in an extraction pool, under the configured budgets. */
import { createExtractionPool, type ExtractionPool } from "./pool.ts";
import type { ExtractionOptions, ExtractResult, FileJob, FileLimits, IngestConfig } from "./types.ts";

export function fileLimits(cfg: IngestConfig): FileLimits {
  return {
    maxPdfPages: cfg.ingestMaxPdfPages,
    maxOcrPages: cfg.ingestMaxOcrPages,
    maxImagePixels: cfg.ingestMaxImagePixels,
    maxXmlBytes: cfg.ingestMaxXmlMb * 1024 * 1024,
  };
}

// The server hands in the pool it built at start-up; tests, benchmarks and scripts that bring none
// share this one, made on first use and stopped by `stopExtractionWorkers`.
let standalone: ExtractionPool | null = null;

function standalonePool(cfg: IngestConfig): ExtractionPool {
  if (!standalone) standalone = createExtractionPool(cfg);
  return standalone;
}

/** Stops the pool of callers that brought none (end of a test file, benchmark or script). */
export function stopExtractionWorkers(): void {
  standalone?.close();
  standalone = null;
}

/** `opts.tenant` names whose turn it is: extraction takes turns across tenants. */
export function runExtraction(
  job: Omit<FileJob, "limits">,
  cfg: IngestConfig,
  opts: Pick<ExtractionOptions, "pool" | "tenant">,
): Promise<ExtractResult> {
  const pool = opts.pool ?? standalonePool(cfg);
  return pool.run({ ...job, limits: fileLimits(cfg) }, cfg.ingestTimeoutMs, opts.tenant ?? "");
}
