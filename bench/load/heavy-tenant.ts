/**
 * A heavy tenant against a real server with the built-in engine (issue #32): the two scenarios of
 * heavy-scenarios.ts (a 20-chapter course from a 3.8 MB book while other tenants read; a backlog of
 * courses, then another tenant's first one). hostile.ts runs them too, after its hostile files.
 * Prints markdown tables; goals beside them: other tenants' p95 < 100 ms, the second tenant's job
 * claimed within one job's duration. The slowest request of the other tenants (max ms) shows the
 * longest stall of the server's thread (one sent as it begins waits it all); on a loaded machine p95
 * and p99 mostly measure scheduling. With --profile the server runs under Bun's CPU profiler, and
 * what held its thread for more than 50 ms at a time is listed (stalls.ts).
 *
 * Usage: bun bench/load/heavy-tenant.ts [--mb 3.8] [--clients 4] [--backlog 12 (0: scenario 1 only)] [--profile]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BUN, call, ROOT, startServer, tempDir } from "../../test/helpers/server.ts";
import { backlogThenAnother, bigBookCourse } from "./heavy-scenarios.ts";
import { stallTable } from "./stalls.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    mb: { type: "string", default: "3.8" },
    clients: { type: "string", default: "4" },
    backlog: { type: "string", default: "12" },
    profile: { type: "boolean", default: false },
  },
});
const CONCURRENCY = 2;

const profileDir = values.profile ? tempDir("cf-profile-") : null;
const srv = await startServer({
  command: profileDir ? [BUN, "--cpu-prof", `--cpu-prof-dir=${profileDir}`, join(ROOT, "src/main.ts")] : undefined,
  env: { LLM_PROVIDER: "extractive", RATE_LIMIT_PER_MINUTE: "1000000", JOB_CONCURRENCY: String(CONCURRENCY) },
});
const startedAt = Date.now();
try {
  const heavy = await srv.createKey("heavy", "production");
  const others = await Promise.all(["tenant-b", "tenant-c"].map((t) => srv.createKey(t, "production")));
  for (const key of others) await call(srv.url, "/v2/users", { key, json: { external_id: "reader" } });
  console.log("\n1. Other tenants while one builds a big course");
  await bigBookCourse(srv, heavy, others, { mb: Number(values.mb), clients: Number(values.clients) });
  if (Number(values.backlog) > 0) {
    console.log("2. Another tenant's first course behind a backlog\n");
    await backlogThenAnother(srv, heavy, others[0]!, { backlog: Number(values.backlog), concurrency: CONCURRENCY });
  }
} finally {
  await srv.stop();
}
if (profileDir) console.log(`\n${stallTable(profileDir, startedAt)}\n\nprofiles in ${profileDir}`);
