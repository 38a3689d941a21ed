/**
 * Mixed load on one server: 200 concurrent clients (default) of three tenants reading courses and
 * progress, querying and uploading documents and starting topic courses (generated against the
 * fake Ollama on loopback), plus clients of one rate-limited tenant. Loopback only; bounded.
 *
 * Usage: bun bench/load/run.ts [--clients 200] [--seconds 30] [--limited-clients 8] [--limit 60]
 * Prints requests, 5xx, 429 and p50/p95/p99 per operation, the limited tenant's windows and the
 * SQLITE_BUSY count, as markdown tables.
 */
import { parseArgs } from "node:util";
import { busyLines, loadEnv } from "../../test/reliability/harness.ts";
import { runLoad } from "../../test/reliability/load-mix.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    clients: { type: "string", default: "200" },
    seconds: { type: "string", default: "30" },
    "limited-clients": { type: "string", default: "8" },
    limit: { type: "string", default: "60" },
  },
});
const clients = Number(values.clients);
const seconds = Number(values.seconds);
const limit = Number(values.limit);
if (!(clients > 0 && seconds > 0 && seconds <= 600 && limit > 0))
  throw new Error("--clients, --seconds (at most 600) and --limit must be positive");

const env = await loadEnv({ latencyMs: 5 });
try {
  const result = await runLoad({
    url: env.srv.url,
    dataDir: env.srv.dataDir,
    clients,
    limitedClients: Number(values["limited-clients"]),
    limit,
    durationMs: seconds * 1000,
  });
  const all = result.rec.statuses();
  console.log(
    `\nMixed load: ${clients} clients + ${values["limited-clients"]} on a tenant limited to ${limit}/min, ${seconds} s, ` +
      `${navigator.hardwareConcurrency} cores (clients, server and fake Ollama on the same machine)\n`,
  );
  console.log(result.rec.table());
  console.log(`\nthroughput: ${(all.length / seconds).toFixed(0)} req/s; courses started: ${result.generated}`);
  console.log("\n| rate-limit window (reset) | allowed | 429 | exact |\n|---|---|---|---|");
  for (const w of result.windows) {
    console.log(
      `| ${new Date(w.reset * 1000).toISOString()} | ${w.allowed} | ${w.limited} | ${w.limited > 0 ? w.allowed === limit : w.allowed <= limit} |`,
    );
  }
  console.log(`\nunexpected statuses: ${result.unexpected.length}; 429 on unlimited tenants: ${result.unexpected429}`);
  console.log(`SQLITE_BUSY / "database is locked" lines in the server log: ${busyLines(env.srv.output()).length}`);
} finally {
  await env.stop();
}
