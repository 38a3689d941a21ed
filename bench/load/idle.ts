/**
 * What an idle server costs (#31): CPU per second of a server process with nothing to do, read
 * from /proc over a quiet stretch after a course was generated (with the fake Ollama): on SQLite
 * with the default lease (JOB_LEASE_SECONDS 30) and the test servers' (5 s), and on PostgreSQL,
 * where the backends serving the server's database count too. CPU, not wall, so a loaded machine leaves
 * the figure readable.
 * Usage: bun bench/load/idle.ts [--seconds 30]
 */
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { postgresSql } from "../../src/db/sql.ts";
import { createKey } from "../../src/tenants/keys.ts";
import { settle } from "../../test/courses/helpers.ts";
import { startFakeModel } from "../../test/helpers/fake-model.ts";
import { startPostgres, type TestPostgres } from "../../test/helpers/postgres.ts";
import { call, startServer } from "../../test/helpers/server.ts";

const { values } = parseArgs({ args: process.argv.slice(2), options: { seconds: { type: "string", default: "30" } } });
const seconds = Number(values.seconds);
if (!(seconds > 0 && seconds <= 600)) throw new Error("--seconds must be in 1..600");

/** CPU milliseconds (user + system) a process has used; 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends serving database `name` (their process title names it). */
function backends(name: string): number[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "utf8").startsWith(`postgres: postgres ${name} `);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The server and its key: a server on PostgreSQL has its key made on that database. */
async function idleCpu(label: string, env: Record<string, string>, pg?: TestPostgres): Promise<string> {
  const model = startFakeModel({ latencyMs: 5, env });
  const srv = await startServer({ env: model.env });
  const database = pg ? new URL(pg.url).pathname.slice(1) : undefined;
  try {
    const key = pg
      ? (await createKey(postgresSql(pg.client), { tenant: "acme", env: "production" })).key
      : await srv.createKey("acme", "production");
    const started = await call(srv.url, "/v2/courses/generate", {
      key,
      user: "idle",
      json: { topic: "Idle servers", num_chapters: 2 },
    });
    if (started.status !== 202) throw new Error(`course not started: ${started.status}`);
    const done = await settle(srv, key, "idle", started.body.course_id);
    if (done.course_status !== "completed") throw new Error(`course ${done.course_status}`);
    // The course's last writes and the JIT's work are over by then.
    await Bun.sleep(3000);
    const pids = [srv.proc.pid, ...(database ? backends(database) : [])];
    const total = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
    const before = [cpuMs(srv.proc.pid), total()];
    const from = performance.now();
    await Bun.sleep(seconds * 1000);
    const elapsed = (performance.now() - from) / 1000;
    const server = (cpuMs(srv.proc.pid) - before[0]!) / elapsed;
    const all = (total() - before[1]!) / elapsed;
    return `| ${label} | ${server.toFixed(1)} ms | ${database ? `${all.toFixed(1)} ms (${pids.length - 1} backends)` : "–"} |`;
  } finally {
    await srv.stop();
    await model.stop();
  }
}

// The fake model's settings are the test servers' (FAST_ENV: 5 s leases); the default lease is 30 s.
const DEPLOYED = { JOB_LEASE_SECONDS: "30" };
const rows = [
  await idleCpu("SQLite, JOB_LEASE_SECONDS 30 (the default)", DEPLOYED),
  await idleCpu("SQLite, JOB_LEASE_SECONDS 5 (the test servers')", {}),
];
const pg = await startPostgres();
try {
  rows.push(await idleCpu("PostgreSQL, JOB_LEASE_SECONDS 30", { ...DEPLOYED, DATABASE_URL: pg.url }, pg));
} finally {
  await pg.stop();
}
console.log(
  `| Idle server after a course | Server CPU per second over ${seconds} s | With its PostgreSQL backends |\n|---|---|---|\n${rows.join("\n")}`,
);
