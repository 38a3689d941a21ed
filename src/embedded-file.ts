/**
 * Files embedded in the compiled executable (imported `with { type: "file" }`) live in Bun's
 * virtual file system, which only Bun's own file APIs can read. A native library must be a real
 * file to be loaded, so it is copied out once to `<dir>/<hash>/<name>`: named by content hash so an
 * upgrade never loads a stale copy, keeping its file name because loaders derive symbols from it.
 * Run from source, the path is already real and is returned as is.
 */
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";

const isEmbedded = (path: string) => path.startsWith("/$bunfs/") || /^[A-Z]:\\~BUN\\/.test(path);

/**
 * An embedded file's content. The build embeds the largest files zstd-compressed (named `.zst`,
 * see build.ts), which keeps tens of megabytes out of the executable; they are decompressed here.
 */
export async function embeddedBytes(path: string): Promise<Uint8Array> {
  const bytes = await Bun.file(path).bytes();
  return path.endsWith(".zst") ? Bun.zstdDecompressSync(bytes) : bytes;
}

export async function realFileOf(embeddedPath: string, dir: string, name: string): Promise<string> {
  if (!isEmbedded(embeddedPath)) return embeddedPath;
  const bytes = await embeddedBytes(embeddedPath);
  const hash = new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 16);
  const target = join(dir, hash, name);
  if (!existsSync(target)) {
    mkdirSync(join(dir, hash), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    await Bun.write(tmp, bytes);
    renameSync(tmp, target);
  }
  return target;
}
