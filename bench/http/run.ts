/**
 * Idle memory and HTTP throughput of the server on this machine.
 * Usage: bun bench/http/run.ts [--seconds 10] [--connections 64]
 * Starts the server (bun src/main.ts) on a fresh data directory, measures RSS once idle, then
 * drives GET /health and authenticated GET /v2/courses with autocannon (run under Node, in its
 * own process), and prints a table. /health is measured in turns with a bare Bun.serve
 * (bare-server.ts), so that their ratio says what the framework and the access log cost; the
 * ratio of CPU time per request, read from /proc, is the one a loaded machine leaves readable.
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

/** CPU seconds (user + system) the process has used: a measure the other processes' load leaves alone. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function autocannon(url: string, headers: Record<string, string>, pid?: number) {
  const cpuBefore = pid ? cpuSeconds(pid) : 0;
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
    /** The serving process's CPU microseconds per request answered. */
    cpuUsPerRequest: pid ? ((cpuSeconds(pid) - cpuBefore) * 1e6) / (r.requests.total as number) : Number.NaN,
    rps: r.requests.average as number,
    p50: r.latency.p50 as number,
    p99: r.latency.p99 as number,
    non2xx: r.non2xx as number,
    errors: r.errors as number,
  };
}

/** A bare Bun.serve in its own process, like the server; its URL. */
async function startBare() {
  const proc = Bun.spawn([BUN, join(import.meta.dir, "bare-server.ts")], { stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  const url = new TextDecoder().decode((await reader.read()).value).trim();
  return { url, proc };
}

const ROUNDS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Measured as deployed: per-request JSON log lines included.
const srv = await startServer({ env: { RATE_LIMIT_PER_MINUTE: "100000000" } });
try {
  const key = await srv.createKey("bench", "production");
  for (let i = 0; i < 25; i++)
    await insertCourse(srv.dataDir, { apiKey: key, externalUserId: "bench-user" }, { title: `Course ${i}` });
  await call(srv.url, "/health");
  await Bun.sleep(2000);
  const idle = rssMb(srv.proc.pid);

  // The server's and the bare server's /health in turns, so that a change in the machine's load
  // between two measurements moves both: the median ratio of the rounds.
  const bareServer = await startBare();
  const rounds: { server: Awaited<ReturnType<typeof autocannon>>; bare: Awaited<ReturnType<typeof autocannon>> }[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++)
      rounds.push({
        server: await autocannon(`${srv.url}/health`, {}, srv.proc.pid),
        bare: await autocannon(`${bareServer.url}health`, {}, bareServer.proc.pid),
      });
  } finally {
    bareServer.proc.kill();
    await bareServer.proc.exited;
  }
  const health = rounds[rounds.length - 1]!.server;
  const ratios = rounds.map((r) => r.server.rps / r.bare.rps);
  // Throughput bound by CPU is the inverse of CPU per request: this ratio holds on a loaded machine.
  const cpuRatios = rounds.map((r) => r.bare.cpuUsPerRequest / r.server.cpuUsPerRequest);
  const list = await autocannon(`${srv.url}/v2/courses?limit=20`, {
    "x-api-key": key,
    "x-external-user-id": "bench-user",
  });
  const after = rssMb(srv.proc.pid);

  const rows = [
    ["idle RSS (MB)", idle.toFixed(1), "< 120"],
    ["RSS after load (MB)", after.toFixed(1), ""],
    ["GET /health req/s", health.rps.toFixed(0), ""],
    ["GET /health p50 / p99 ms", `${health.p50} / ${health.p99}`, ""],
    ["bare Bun.serve /health req/s, per round", rounds.map((r) => r.bare.rps.toFixed(0)).join(" / "), ""],
    ["server /health req/s, per round", rounds.map((r) => r.server.rps.toFixed(0)).join(" / "), ""],
    [`/health: server ÷ bare Bun.serve req/s (median of ${ROUNDS} rounds)`, median(ratios).toFixed(2), ""],
    [
      "/health CPU µs per request, server / bare Bun.serve (medians)",
      `${median(rounds.map((r) => r.server.cpuUsPerRequest)).toFixed(0)} / ${median(rounds.map((r) => r.bare.cpuUsPerRequest)).toFixed(0)}`,
      "",
    ],
    ["/health: bare ÷ server CPU per request (median)", median(cpuRatios).toFixed(2), ">= 0.80"],
    ["GET /v2/courses (auth, 20 items) req/s", list.rps.toFixed(0), ">= 5000"],
    ["GET /v2/courses p50 / p99 ms", `${list.p50} / ${list.p99}`, ""],
    [
      "non-2xx / errors",
      `${rounds.reduce((n, r) => n + r.server.non2xx, 0) + list.non2xx} / ${rounds.reduce((n, r) => n + r.server.errors, 0) + list.errors}`,
      "0 / 0",
    ],
  ];
  console.log(
    `\nHTTP benchmark: ${values.connections} connections, ${values.seconds} s per route, ${navigator.hardwareConcurrency} cores (load generator on the same machine)\n`,
  );
  console.log("| measure | value | target |\n|---|---|---|");
  for (const [m, v, t] of rows) console.log(`| ${m} | ${v} | ${t} |`);
} finally {
  await srv.stop();
}
