/** Shared bits of the ingestion tests: corpus paths, a scratch directory, settings. */

import { expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { AppError } from "../../src/errors.ts";
import type { IngestConfig } from "../../src/ingest/types.ts";

export const CORPUS = resolve(import.meta.dir, "../../../shared/corpus");
export const FIXTURES = resolve(import.meta.dir, "fixtures");

export const corpus = (path: string): string => join(CORPUS, path);

export function scratch(): {
  dir: string;
  write(name: string, data: Uint8Array | string): Promise<string>;
  remove(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), "cf-ingest-"));
  return {
    dir,
    async write(name, data) {
      const path = join(dir, name);
      await Bun.write(path, data);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function ingestConfig(dataDir: string, overrides: Partial<IngestConfig> = {}): IngestConfig {
  return {
    dataDir,
    outboundAllow: [],
    youtubeBaseUrl: "https://www.youtube.com",
    ingestWorkers: 2,
    // Under a test's 300 s budget, far above an idle machine's seconds: OCR takes minutes beside other work.
    ingestTimeoutMs: 280_000,
    ingestMaxPdfPages: 1000,
    ingestMaxOcrPages: 50,
    ingestMaxImagePixels: 40_000_000,
    ingestMaxXmlMb: 10,
    ingestWorkerMemoryMb: 1024,
    ingestTenantWorkers: 0,
    ...overrides,
  };
}

/** The AppError a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("expected a failure");
}
