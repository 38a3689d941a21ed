/** One file parsed in the shared extraction pool, under the configured budgets. */
import type { FileJob } from "./extract-file.ts";
import { extractionPool } from "./pool.ts";
import type { ExtractResult, FileLimits, IngestConfig } from "./types.ts";

export function fileLimits(cfg: IngestConfig): FileLimits {
  return {
    maxPdfPages: cfg.ingestMaxPdfPages,
    maxOcrPages: cfg.ingestMaxOcrPages,
    maxImagePixels: cfg.ingestMaxImagePixels,
    maxXmlBytes: cfg.ingestMaxXmlMb * 1024 * 1024,
  };
}

/** `tenant` names whose turn it is: extraction takes turns across tenants. */
export function runExtraction(job: Omit<FileJob, "limits">, cfg: IngestConfig, tenant = ""): Promise<ExtractResult> {
  const pool = extractionPool(cfg.ingestWorkers, {
    memoryMb: cfg.ingestWorkerMemoryMb,
    tenantWorkers: cfg.ingestTenantWorkers,
  });
  return pool.run({ ...job, limits: fileLimits(cfg) }, cfg.ingestTimeoutMs, tenant);
}
