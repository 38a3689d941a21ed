/**
 * The served /openapi.json passes Redocly CLI's recommended ruleset with no error and no warning
 * (servers, a 4xx answer on every operation, a license, ...): the lint that API tooling and
 * reviewers run on a published document.
 */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startApp } from "../helpers/app.ts";
import { call, cleanup, ROOT, tempDir } from "../helpers/server.ts";

const dir = tempDir("cf-lint-");
const srv = await startApp();
afterAll(async () => {
  await srv.stop();
  cleanup(dir);
});

test("/openapi.json has no error or warning under `redocly lint` (recommended)", async () => {
  const res = await call(srv, "/openapi.json");
  expect(res.status).toBe(200);
  const file = join(dir, "openapi.json");
  await Bun.write(file, JSON.stringify(res.body));
  const lint = Bun.spawnSync(
    [
      "node",
      join(ROOT, "node_modules/@redocly/cli/bin/cli.js"),
      "lint",
      "--extends=recommended",
      "--format=json",
      file,
    ],
    {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const report = JSON.parse(lint.stdout.toString()) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
  };
  const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
  expect(problems).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  expect(lint.exitCode).toBe(0);
}, 60_000);
