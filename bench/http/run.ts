/**
 * Idle memory and HTTP throughput of the server on this machine.
 * Usage: bun bench/http/run.ts [--seconds 10] [--connections 64]
 * Starts the server (bun src/main.ts) on a fresh data directory, measures RSS once idle, then
 * drives GET /health and authenticated GET /v2/courses with autocannon (run under Node, in its
 * own process), and prints a table. /health is also measured on a bare Bun.serve (bare-server.ts)
 * right after, so that the ratio of the two says what the framework and the access log cost.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { insertCourse } from "../../test/helpers/fixtures.ts";
import { BUN, call, ROOT, startServer } from "../../test/helpers/server.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { seconds: { type: "string", default: "10" }, connections: { type: "string", default: "64" } },
});

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function autocannon(url: string, headers: Record<string, string>) {
  const args = [
    join(ROOT, "node_modules/autocannon/autocannon.js"),
    "-j",
    "-d",
    values.seconds!,
    "-c",
    values.connections!,
  ];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}=${v}`);
  args.push(url);
  const proc = Bun.spawn(["node", ...args], { stdout: "pipe", stderr: "ignore" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const r = JSON.parse(out);
  return {
    rps: r.requests.average as number,
    p50: r.latency.p50 as number,
    p99: r.latency.p99 as number,
    non2xx: r.non2xx as number,
    errors: r.errors as number,
  };
}

/** /health's throughput on a bare Bun.serve in its own process, like the server's. */
async function bareHealth() {
  const proc = Bun.spawn([BUN, join(import.meta.dir, "bare-server.ts")], { stdout: "pipe", stderr: "inherit" });
  try {
    const reader = proc.stdout.getReader();
    const url = new TextDecoder().decode((await reader.read()).value).trim();
    return await autocannon(`${url}health`, {});
  } finally {
    proc.kill();
    await proc.exited;
  }
}

// Measured as deployed: per-request JSON log lines included.
const srv = await startServer({ env: { RATE_LIMIT_PER_MINUTE: "100000000" } });
try {
  const key = await srv.createKey("bench", "production");
  for (let i = 0; i < 25; i++)
    await insertCourse(srv.dataDir, { apiKey: key, externalUserId: "bench-user" }, { title: `Course ${i}` });
  await call(srv.url, "/health");
  await Bun.sleep(2000);
  const idle = rssMb(srv.proc.pid);

  const health = await autocannon(`${srv.url}/health`, {});
  const list = await autocannon(`${srv.url}/v2/courses?limit=20`, {
    "x-api-key": key,
    "x-external-user-id": "bench-user",
  });
  const after = rssMb(srv.proc.pid);
  const bare = await bareHealth();

  const rows = [
    ["idle RSS (MB)", idle.toFixed(1), "< 120"],
    ["RSS after load (MB)", after.toFixed(1), ""],
    ["GET /health req/s", health.rps.toFixed(0), ""],
    ["GET /health p50 / p99 ms", `${health.p50} / ${health.p99}`, ""],
    ["bare Bun.serve /health req/s", bare.rps.toFixed(0), ""],
    ["/health: server ÷ bare Bun.serve", (health.rps / bare.rps).toFixed(2), ">= 0.80"],
    ["GET /v2/courses (auth, 20 items) req/s", list.rps.toFixed(0), ">= 5000"],
    ["GET /v2/courses p50 / p99 ms", `${list.p50} / ${list.p99}`, ""],
    ["non-2xx / errors", `${health.non2xx + list.non2xx} / ${health.errors + list.errors}`, "0 / 0"],
  ];
  console.log(
    `\nHTTP benchmark: ${values.connections} connections, ${values.seconds} s per route, ${navigator.hardwareConcurrency} cores (load generator on the same machine)\n`,
  );
  console.log("| measure | value | target |\n|---|---|---|");
  for (const [m, v, t] of rows) console.log(`| ${m} | ${v} | ${t} |`);
} finally {
  await srv.stop();
}
