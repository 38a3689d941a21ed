/**
 * Blobs (uploaded originals, podcast audio) are files under BLOB_DIR (DATA_DIR/blobs unless set),
 * addressed by a key `yyyy/mm/<uuid>.<ext>`. Files are written to a temporary name and renamed, so
 * a crash never leaves a half-written blob under a real key; keys are unique, so several nodes
 * sharing one BLOB_DIR never write the same file.
 */
import { copyFile, mkdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { newId } from "../util.ts";

const KEY_RE = /^\d{4}\/\d{2}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;

export const isBlobKey = (key: string): boolean => KEY_RE.test(key);

export function blobPath(blobDir: string, key: string): string {
  if (!isBlobKey(key)) throw new Error(`not a blob key: ${key}`);
  return join(blobDir, key);
}

export async function putBlob(
  cfg: { blobDir: string },
  source: string | Uint8Array,
  opts: { ext: string },
): Promise<{ key: string; size: number }> {
  const now = new Date();
  const ext =
    opts.ext
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")
      .slice(0, 8) || "bin";
  const key = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}/${newId()}.${ext}`;
  const target = blobPath(cfg.blobDir, key);
  await mkdir(dirname(target), { recursive: true });
  const tmp = `${target}.tmp`;
  try {
    if (typeof source === "string") await copyFile(source, tmp);
    else await Bun.write(tmp, source);
    await rename(tmp, target);
  } catch (err) {
    // A disk that filled up mid-copy leaves a partial file: it goes with the failure.
    await rm(tmp, { force: true });
    throw err;
  }
  return { key, size: Bun.file(target).size };
}

export async function deleteBlob(cfg: { blobDir: string }, key: string): Promise<void> {
  await rm(blobPath(cfg.blobDir, key), { force: true });
}
