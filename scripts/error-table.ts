/**
 * The README's error table, generated from the catalogue in src/errors.ts. Prints the table, or
 * with --write rewrites the block between the README's two error-table markers.
 * Run: npx bun scripts/error-table.ts [--write]
 */
import { join } from "node:path";
import { errorCatalogue, MODEL_FAILURE_STATUS } from "../src/errors.ts";

export const START = "<!-- error-table:start (generated: npx bun scripts/error-table.ts --write) -->";
export const END = "<!-- error-table:end -->";

/** One row per code, by status then code. */
export function errorTable(): string {
  const rows = Object.entries(errorCatalogue)
    .sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b))
    .map(([code, { status, doc }]) => `| \`${code}\` | ${status} | ${doc} |`);
  const restated = `Model failures (\`LLM_*\`, and the failures of a course's work) are answered ${MODEL_FAILURE_STATUS.materials} on the materials endpoints and ${MODEL_FAILURE_STATUS.generation} on course generation, whatever the status above.`;
  return ["| Code | Status | Meaning |", "|---|---|---|", ...rows, "", restated].join("\n");
}

/** `readme` with the block between the markers replaced by the current table. */
export function withErrorTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${START} … ${END}`);
  return `${readme.slice(0, start + START.length)}\n${errorTable()}\n${readme.slice(end)}`;
}

if (import.meta.main) {
  if (process.argv.includes("--write")) {
    const path = join(import.meta.dir, "..", "README.md");
    await Bun.write(path, withErrorTable(await Bun.file(path).text()));
  } else {
    console.log(errorTable());
  }
}
