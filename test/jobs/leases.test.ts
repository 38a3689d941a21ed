/**
 * Job leases, in process with a manual clock: a worker never takes back a lease it holds however
 * late its heartbeat, and a worker whose lease ran out and was taken by another changes nothing
 * when it finishes (its completion and its heartbeat are fenced by the lease).
 */
import type { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { openDb } from "../../src/db/index.ts";
import { sql, sqliteSql } from "../../src/db/sql.ts";
import { defineJob, jobType, registerJob } from "../../src/jobs/definition.ts";
import { enqueueJob, type JobRow } from "../../src/jobs/queue.ts";
import { JobWorker } from "../../src/jobs/worker.ts";
import type { Logger } from "../../src/log.ts";
import { waitFor } from "../courses/helpers.ts";
import { type ManualClock, manualClock } from "../helpers/manual-clock.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const LEASE_SECONDS = 30;
const HOLD = jobType("test.hold", Type.Object({ name: Type.String() }));

/** One run of a held job: it ends when the test says so (it does not watch its signal, as a handler mid-call). */
interface HeldRun {
  jobId: string;
  name: string;
  signal: AbortSignal;
  finish(result: unknown): void;
}

let dir: string;
let sqlite: Database;
let clock: ManualClock;
let runs: HeldRun[];
let logged: { level: string; msg: string; fields?: Record<string, unknown> }[];
let workers: JobWorker[];

const log: Logger = {
  debug: (msg, fields) => logged.push({ level: "debug", msg, fields }),
  info: (msg, fields) => logged.push({ level: "info", msg, fields }),
  warn: (msg, fields) => logged.push({ level: "warn", msg, fields }),
  error: (msg, fields) => logged.push({ level: "error", msg, fields }),
  access: (msg, fields) => logged.push({ level: "info", msg, fields }),
};

const holdJob = defineJob(HOLD, () => ({
  run: (job, { name }, ctx) =>
    new Promise<unknown>((resolve) => {
      runs.push({ jobId: job.id, name, signal: ctx.signal, finish: resolve });
    }),
}));

function worker(concurrency: number): JobWorker {
  const w = new JobWorker(sqliteSql(sqlite), log, [registerJob(holdJob, {})], {
    concurrency,
    leaseSeconds: LEASE_SECONDS,
    maxStalls: 3,
    clock,
    pollMs: 20,
  });
  workers.push(w);
  return w;
}

const enqueue = async (name: string) =>
  (await enqueueJob({ sql: sqliteSql(sqlite), clock }, { type: HOLD, payload: { name } })).id;
const row = (id: string): JobRow => sqliteSql(sqlite).getSync<JobRow>(sql`SELECT * FROM jobs WHERE id = ${id}`)!;
const runsOf = (id: string) => runs.filter((r) => r.jobId === id);
const until = <T>(what: string, get: () => T, done: (v: T) => boolean) =>
  waitFor(what, async () => get(), done, 10_000, 10);

beforeEach(async () => {
  dir = tempDir("cf-leases-");
  sqlite = (await openDb(dir)).sqlite;
  clock = manualClock();
  runs = [];
  logged = [];
  workers = [];
});
afterEach(async () => {
  for (const w of workers) await w.stop(1_000);
  sqlite.close();
  cleanup(dir);
});

test("a worker does not take back its own job when the lease ran out before its heartbeat", async () => {
  const w = worker(2);
  await w.start();
  const first = await enqueue("first");
  await until(
    "the first run",
    () => runsOf(first).length,
    (n) => n === 1,
  );
  const lease = row(first);
  expect(lease).toMatchObject({ status: "running", lease_owner: w.owner, attempts: 1 });

  // The event loop stalled past the lease (longer than lease minus one heartbeat): the lease has
  // expired when the worker next polls, before its heartbeat renews it.
  clock.advance((LEASE_SECONDS + 1) * 1000);
  expect(Date.parse(lease.lease_until!)).toBeLessThan(clock.now().getTime());
  // A second job queued after the stall: once it runs, the worker has polled past the expired lease.
  const second = await enqueue("second");
  await until(
    "the second run",
    () => runsOf(second).length,
    (n) => n === 1,
  );

  expect(runsOf(first)).toHaveLength(1);
  expect(row(first)).toMatchObject({ status: "running", lease_owner: w.owner, attempts: 1, stalls: 0 });
  await w.heartbeat();
  expect(Date.parse(row(first).lease_until!)).toBe(clock.now().getTime() + LEASE_SECONDS * 1000);

  runsOf(first)[0]!.finish({ ran: "once" });
  await until(
    "the first job to complete",
    () => row(first).status,
    (s) => s === "completed",
  );
  expect(row(first)).toMatchObject({ result: JSON.stringify({ ran: "once" }), attempts: 1, stalls: 0 });
});

test("a worker whose lease expired and was taken over changes nothing when it finishes late", async () => {
  // One job at a time each, so worker A (busy with the job) cannot claim it back once requeued.
  const a = worker(1);
  await a.start();
  const id = await enqueue("contested");
  await until(
    "A's run",
    () => runsOf(id).length,
    (n) => n === 1,
  );
  const [late] = runsOf(id);

  // A stalls past its lease; worker B finds the job running with an expired lease and takes it over.
  clock.advance((LEASE_SECONDS + 1) * 1000);
  const b = worker(1);
  await b.start();
  await until(
    "B's run",
    () => runsOf(id).length,
    (n) => n === 2,
  );
  const taken = row(id);
  expect(taken).toMatchObject({ status: "running", lease_owner: b.owner, stalls: 1 });

  // A's heartbeat neither renews B's lease nor takes it back.
  await a.heartbeat();
  expect(row(id)).toEqual(taken);

  runsOf(id)[1]!.finish({ by: "B" });
  await until(
    "B's completion",
    () => row(id).status,
    (s) => s === "completed",
  );
  const completed = row(id);
  expect(completed).toMatchObject({ result: JSON.stringify({ by: "B" }), error: null, lease_owner: null });

  // A finishes after all, with its own result: the job is B's, as B left it.
  clock.advance(5_000);
  late!.finish({ by: "A" });
  await until(
    "A's run to end",
    () => a.activeCount,
    (n) => n === 0,
  );
  await a.heartbeat();
  expect(row(id)).toEqual(completed);
  expect(logged).toContainEqual({
    level: "warn",
    msg: "job lease lost to another worker; its result is discarded",
    fields: { job_id: id, type: HOLD.type },
  });
  // The heartbeat that found its lease gone asked A's run to stop.
  expect(late!.signal.aborted).toBe(true);
});

test("a worker whose lease was taken over cannot fail the job either", async () => {
  const failing = defineJob(HOLD, () => ({
    run: (job, { name }, ctx) =>
      new Promise<unknown>((_resolve, reject) => {
        runs.push({ jobId: job.id, name, signal: ctx.signal, finish: (e) => reject(e) });
      }),
  }));
  const a = new JobWorker(sqliteSql(sqlite), log, [registerJob(failing, {})], {
    concurrency: 1,
    leaseSeconds: LEASE_SECONDS,
    maxStalls: 3,
    clock,
    pollMs: 20,
  });
  workers.push(a);
  await a.start();
  const id = (
    await enqueueJob({ sql: sqliteSql(sqlite), clock }, { type: HOLD, payload: { name: "doomed" }, maxAttempts: 1 })
  ).id;
  await until(
    "A's run",
    () => runsOf(id).length,
    (n) => n === 1,
  );
  clock.advance((LEASE_SECONDS + 1) * 1000);
  const b = worker(1);
  await b.start();
  await until(
    "B's run",
    () => runsOf(id).length,
    (n) => n === 2,
  );
  const taken = row(id);

  runsOf(id)[0]!.finish(new Error("A gave up"));
  await until(
    "A's run to end",
    () => a.activeCount,
    (n) => n === 0,
  );
  expect(row(id)).toEqual(taken);
  runsOf(id)[1]!.finish({ by: "B" });
  await until(
    "B's completion",
    () => row(id).status,
    (s) => s === "completed",
  );
  expect(row(id).error).toBeNull();
});

test("a heartbeat that meets a busy database warns and renews the lease on its next beat", async () => {
  const w = worker(1);
  await w.start();
  const id = await enqueue("busy");
  await until(
    "the run",
    () => runsOf(id).length,
    (n) => n === 1,
  );
  const before = row(id).lease_until;

  // Another connection (an extraction process) holds the write lock past the worker's patience.
  const other = (await openDb(dir, { migrate: false })).sqlite;
  sqlite.run("PRAGMA busy_timeout = 0");
  other.run("BEGIN IMMEDIATE");
  clock.advance(10_000);
  await expect(w.heartbeat()).resolves.toBeUndefined();
  expect(logged).toContainEqual({
    level: "warn",
    msg: "job lease not renewed this beat: the database was busy",
    fields: { job_id: id, type: HOLD.type },
  });
  other.run("ROLLBACK");
  other.close();
  expect(row(id).lease_until).toBe(before);
  expect(runsOf(id)[0]!.signal.aborted).toBe(false);

  await w.heartbeat();
  expect(Date.parse(row(id).lease_until!)).toBe(clock.now().getTime() + LEASE_SECONDS * 1000);
  runsOf(id)[0]!.finish({ ran: "once" });
});
