/**
 * Locates sqlite-vec's loadable library. Imported "as file" so `bun build --compile` embeds it;
 * SQLite can only dlopen a real file, so inside the executable it is copied out once to
 * DATA_DIR/lib/<content hash>/ (so upgrades never load a stale copy; the file keeps its name
 * because SQLite derives the extension's entry point from it).
 */
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import vecLibrary from "sqlite-vec-linux-x64/vec0.so" with { type: "file" };

export async function sqliteVecPath(dataDir: string): Promise<string> {
  if (!vecLibrary.startsWith("/$bunfs/") && !/^[A-Z]:\\~BUN\\/.test(vecLibrary)) return vecLibrary;
  const bytes = await Bun.file(vecLibrary).bytes();
  const hash = new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 16);
  const dir = join(dataDir, "lib", `sqlite-vec-${hash}`);
  const target = join(dir, "vec0.so");
  if (!existsSync(target)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    await Bun.write(tmp, bytes);
    renameSync(tmp, target);
  }
  return target;
}
