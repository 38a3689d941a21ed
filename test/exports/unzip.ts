/** Reading export packages as their consumers do: Debian's unzip tests the archive, then files are read out. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";

/** Runs `unzip -t` (every entry's CRC) and returns the entries by name. */
export function openZip(bytes: Uint8Array): Record<string, Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), "cf-export-"));
  const path = join(dir, "package.zip");
  writeFileSync(path, bytes);
  const check = Bun.spawnSync(["unzip", "-t", path], { stdout: "pipe", stderr: "pipe" });
  if (check.exitCode !== 0) throw new Error(`unzip -t failed: ${check.stdout.toString()}${check.stderr.toString()}`);
  return unzipSync(bytes);
}

/** Extracts the package into a fresh folder with `unzip` and returns the folder. */
export function extractZip(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), "cf-export-"));
  writeFileSync(join(dir, "package.zip"), bytes);
  const out = join(dir, "files");
  const run = Bun.spawnSync(["unzip", "-q", join(dir, "package.zip"), "-d", out], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`unzip failed: ${run.stderr.toString()}`);
  return out;
}

export const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
