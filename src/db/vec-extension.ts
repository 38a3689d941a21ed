/** sqlite-vec's loadable library, imported "as file" so `bun build --compile` embeds it. */
import { join } from "node:path";
import vecLibrary from "sqlite-vec-linux-x64/vec0.so" with { type: "file" };
import { realFileOf } from "../embedded-file.ts";

export function sqliteVecPath(dataDir: string): Promise<string> {
  return realFileOf(vecLibrary, join(dataDir, "lib", "sqlite-vec"), "vec0.so");
}
