/**
 * Production installs are reproducible: `npm ci` installs exactly the lock file, and refuses to when
 * package.json and package-lock.json disagree. A dry run answers that without installing anything.
 */
import { expect, test } from "bun:test";
import { ROOT } from "../helpers/server.ts";

test("package-lock.json is in sync with package.json (npm ci accepts it)", () => {
  const run = Bun.spawnSync(["npm", "ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const errors = run.stderr
    .toString()
    .split("\n")
    .filter((l) => l.startsWith("npm error"));
  expect(errors).toEqual([]);
  expect(run.exitCode).toBe(0);
});
