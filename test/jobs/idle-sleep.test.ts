/**
 * An idle worker sleeps until the queue can change (#31): it looks again when a delayed job falls
 * due or another worker's lease runs out, not every half second, and still sees a lease taken
 * after its last look before that lease runs out. In process, on the real clock: what is tested is
 * when the worker wakes, so its looks at the queue are counted (the claim's read of due jobs).
 */
import type { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { hostname } from "node:os";
import { Type } from "@sinclair/typebox";
import { systemClock } from "../../src/clock.ts";
import { openDb } from "../../src/db/index.ts";
import { sql, sqliteSql } from "../../src/db/sql.ts";
import { defineJob, jobType, registerJob } from "../../src/jobs/definition.ts";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { JobWorker } from "../../src/jobs/worker.ts";
import type { Logger } from "../../src/log.ts";
import { waitFor } from "../courses/helpers.ts";
import { countLooks, type LookedDb } from "../helpers/queue-looks.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const NOTE = jobType("test.note", Type.Object({ name: Type.String() }));
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, access() {} };

let dir: string;
let sqlite: Database;
let db: LookedDb;
/** Each run's job and how many times the worker had looked at the queue when it started. */
let runs: { jobId: string; looksBefore: number }[];
let worker: JobWorker | null;

const noteJob = defineJob(NOTE, () => ({
  run: async (job) => {
    runs.push({ jobId: job.id, looksBefore: db.looks() });
    return {};
  },
}));

async function start(leaseSeconds: number): Promise<JobWorker> {
  worker = new JobWorker(db.sql, quiet, [registerJob(noteJob, {})], {
    concurrency: 2,
    leaseSeconds,
    maxStalls: 3,
    clock: systemClock,
  });
  await worker.start();
  return worker;
}

/** A worker started and past its first look at the queue. */
async function startLooked(leaseSeconds: number): Promise<void> {
  await start(leaseSeconds);
  await waitFor(
    "the first look",
    async () => db.looks(),
    (n) => n >= 1,
    10_000,
    10,
  );
}

/** A running job under another worker of this live process, its lease running out in `ms`. */
function leasedElsewhere(ms: number): string {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  sqliteSql(sqlite).runSync(
    sql`INSERT INTO jobs (id, type, status, payload, attempts, max_attempts, run_after, lease_owner, lease_token,
                          lease_until, created_at, updated_at, started_at)
        VALUES (${id}, ${NOTE.type}, 'running', ${JSON.stringify({ name: "elsewhere" })}, 1, 3, ${now},
                ${`${hostname()}:${process.pid}:another`}, 'token', ${new Date(Date.now() + ms).toISOString()},
                ${now}, ${now}, ${now})`,
  );
  return id;
}

const ranJob = (id: string) =>
  waitFor(
    `job ${id} to run`,
    async () => runs.find((r) => r.jobId === id),
    (r) => r !== undefined,
    20_000,
    20,
  );

beforeEach(async () => {
  dir = tempDir("cf-idle-");
  sqlite = (await openDb(dir)).sqlite;
  db = countLooks(sqliteSql(sqlite));
  runs = [];
  worker = null;
});
afterEach(async () => {
  await worker?.stop(1_000);
  sqlite.close();
  cleanup(dir);
});

test("a delayed job runs when it falls due, the worker looking at the queue at start and then", async () => {
  const { id } = await enqueueJob(
    { sql: sqliteSql(sqlite), clock: systemClock },
    { type: NOTE, payload: { name: "later" }, runAfter: new Date(Date.now() + 1_500) },
  );
  // A lease of a minute: without a wake-up at the job's time, the worker would sleep half of it.
  await start(60);
  const run = await ranJob(id);
  // A poll every half second would have looked four times by then.
  expect(run!.looksBefore).toBeLessThanOrEqual(2);
});

test("another worker's job is taken over when its lease runs out, not a poll later", async () => {
  const id = leasedElsewhere(1_500);
  await start(60);
  const run = await ranJob(id);
  expect(run!.looksBefore).toBeLessThanOrEqual(2);
  expect(sqlite.query("SELECT stalls FROM jobs WHERE id = ?").get(id)).toEqual({ stalls: 1 });
});

test("a lease another worker took after this one's last look is still taken over when it runs out", async () => {
  await startLooked(1);
  // Nothing announces another worker's claim: the worker's longest sleep, under the lease, finds it.
  const id = leasedElsewhere(1_000);
  await ranJob(id);
  expect(sqlite.query("SELECT stalls FROM jobs WHERE id = ?").get(id)).toEqual({ stalls: 1 });
});

test("a job another connection queued runs at once, though its announcement is on that connection", async () => {
  await startLooked(60);
  // As an operator's script or another process would: the database file opened again.
  const { sqlite: other } = await openDb(dir, { migrate: false });
  try {
    const { id } = await enqueueJob(
      { sql: sqliteSql(other), clock: systemClock },
      { type: NOTE, payload: { name: "from elsewhere" } },
    );
    // Within the ranJob wait, far under the half-minute the worker would otherwise sleep.
    await ranJob(id);
  } finally {
    other.close();
  }
});

test("a job announced while the worker looks at the queue runs at once, not after the sleep that look chose", async () => {
  let id = "";
  // Queued (and announced) after the tick's claims, before it schedules its next look.
  db.atLookEnd(async () => {
    // Due already when the tick read the time: only the announcement can bring it before the next look.
    ({ id } = await enqueueJob(
      { sql: sqliteSql(sqlite), clock: systemClock },
      { type: NOTE, payload: { name: "mid-tick" }, runAfter: new Date(Date.now() - 60_000) },
    ));
  });
  await start(60);
  await waitFor(
    "the job queued mid-tick",
    async () => id,
    (v) => v !== "",
    10_000,
    10,
  );
  // Within the ranJob wait, far under the half-minute the tick chose.
  await ranJob(id);
});
