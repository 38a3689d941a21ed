/**
 * Concurrent load against one server: reads, document queries and uploads, and topic courses
 * generated against the fake Ollama, from several tenants at once, plus one rate-limited tenant.
 * Nothing may fail with a 5xx or lock up SQLite, and the limited tenant gets exactly its limit.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { busyLines, type LoadEnv, loadEnv, withDb } from "./harness.ts";
import { type LoadResult, runLoad } from "./load-mix.ts";

const CLIENTS = 64;
const LIMITED_CLIENTS = 8;
/** Low enough that the limited clients pass it within a window on a loaded machine too (they sent 22 requests in 15 s there). */
const LIMIT = 10;
/**
 * The load runs this long, then on until it has shown what the tests check (every client answered,
 * every operation of the mix, a course started, the limit reached), for at most MAX_DURATION_MS:
 * a fixed 15 s kept two idle cores busy for nothing, and a loaded machine could end it short.
 */
const DURATION_MS = 5_000;
const MAX_DURATION_MS = 60_000;
const OPS = ["list courses", "get course", "progress", "query documents", "generate course", "process document"];

let env: LoadEnv;
let result: LoadResult;

beforeAll(async () => {
  env = await loadEnv({ env: { JOB_CONCURRENCY: "2" } });
  const started = performance.now();
  result = await runLoad({
    url: env.srv.url,
    dataDir: env.srv.dataDir,
    clients: CLIENTS,
    limitedClients: LIMITED_CLIENTS,
    limit: LIMIT,
    durationMs: DURATION_MS,
    maxDurationMs: MAX_DURATION_MS,
    until: ({ rec, windows, generated }) =>
      rec.statuses().length >= CLIENTS + LIMITED_CLIENTS &&
      OPS.every((op) => rec.statuses(op).length > 0) &&
      generated > 0 &&
      windows.some((w) => w.limited > 0),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`\n${CLIENTS} + ${LIMITED_CLIENTS} clients, ${seconds} s with the set-up:\n${result.rec.table()}\n`);
}, 300_000);

afterAll(async () => {
  await env?.stop();
});

test("no request fails with a 5xx or goes unanswered", () => {
  const statuses = result.rec.statuses();
  // Every client was answered at least once, whatever the machine's speed: the load was there.
  expect(statuses.length).toBeGreaterThanOrEqual(CLIENTS + LIMITED_CLIENTS);
  expect(statuses.filter((s) => s >= 500 || s === 0)).toEqual([]);
  expect(env.srv.output()).not.toContain('"msg":"request failed"');
});

test("every request of the mix gets the status its operation promises", () => {
  expect(result.unexpected.slice(0, 5)).toEqual([]);
  expect(result.unexpected429).toBe(0);
  for (const op of OPS) expect(result.rec.statuses(op).length).toBeGreaterThan(0);
  expect(result.generated).toBeGreaterThan(0);
});

test("SQLite never reports a lock under concurrent reads and writes", () => {
  expect(busyLines(env.srv.output())).toEqual([]);
});

test("the rate-limited tenant gets exactly its limit per window across its two keys", () => {
  expect(result.windows.length).toBeGreaterThan(0);
  for (const w of result.windows) {
    // A window the clients saturated allows exactly LIMIT; a partial one (the test crossed a minute) at most LIMIT.
    if (w.limited > 0) expect(w).toMatchObject({ allowed: LIMIT });
    else expect(w.allowed).toBeLessThanOrEqual(LIMIT);
  }
  expect(result.windows.some((w) => w.limited > 0)).toBe(true);
});

test("courses started under load are all generated once the queue drains", async () => {
  const deadline = Date.now() + 240_000;
  let pending = Number.POSITIVE_INFINITY;
  while (pending > 0 && Date.now() < deadline) {
    pending = withDb(
      env.srv.dataDir,
      (db) =>
        db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE status IN ('queued','running')").get()!.n,
    );
    if (pending > 0) await Bun.sleep(250);
  }
  expect(pending).toBe(0);
  const failed = withDb(env.srv.dataDir, (db) =>
    db.query("SELECT type, error FROM jobs WHERE status = 'failed'").all(),
  );
  expect(failed).toEqual([]);
  const duplicates = withDb(env.srv.dataDir, (db) =>
    db
      .query("SELECT course_id, order_index, count(*) AS n FROM chapters GROUP BY course_id, order_index HAVING n > 1")
      .all(),
  );
  expect(duplicates).toEqual([]);
}, 300_000);
