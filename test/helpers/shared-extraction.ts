/**
 * A real document's extraction, made once per test run for every test file that reads it (the R
 * manual, the papers and the books are read by several): parsed in this process on first use, read
 * back from the run's cache after (helpers/run-cache.ts).
 */
import { basename } from "node:path";
import { detectFileKind } from "../../src/ingest/detect.ts";
import { runFileJob } from "../../src/ingest/extract-file.ts";
import type { ExtractResult, FileLimits } from "../../src/ingest/types.ts";
import { fileHash, runCached } from "./run-cache.ts";

export function sharedExtraction(path: string, limits: FileLimits, filename = basename(path)): Promise<ExtractResult> {
  return runCached("extraction", [fileHash(path), filename, limits], async () => {
    const { kind } = await detectFileKind(path, filename);
    return runFileJob({ path, filename, kind, limits });
  });
}
