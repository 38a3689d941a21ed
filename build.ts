/**
 * Builds dist/courseforge: one self-contained executable (Bun runtime + our code + embedded
 * migrations, prompts, sqlite-vec, the docs page). Run with `bun run build`.
 */
import { rmSync } from "node:fs";
import pkg from "./package.json" with { type: "json" };

const outfile = process.argv.includes("--outfile") ? process.argv[process.argv.indexOf("--outfile") + 1]! : "dist/courseforge";
rmSync(outfile, { force: true });

const result = await Bun.build({
  entrypoints: ["./src/main.ts"],
  compile: { outfile },
  minify: true,
  define: { "process.env.COURSEFORGE_BUILD": JSON.stringify(`${pkg.version}`) },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile}`);
