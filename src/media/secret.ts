import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The server's own signing secret, created once per data directory and kept private to it. */
export function loadOrCreateSecret(dataDir: string, name: string): Uint8Array {
  const path = join(dataDir, "secrets", name);
  if (existsSync(path)) return new Uint8Array(readFileSync(path));
  mkdirSync(join(dataDir, "secrets"), { recursive: true, mode: 0o700 });
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  writeFileSync(path, bytes, { mode: 0o600, flag: "wx" });
  chmodSync(path, 0o600);
  return bytes;
}
