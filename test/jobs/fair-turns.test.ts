/**
 * Tenants take turns in the job queue (#32): the tenant served longest ago goes first, then its
 * learner served longest ago, then the oldest job, so one tenant's backlog never delays another
 * tenant's first job by more than the job already running. A tenant alone may use every slot; while
 * another tenant waits, it may hold at most JOB_TENANT_SHARE of them. In process, jobs held until
 * the test finishes them.
 */
import type { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { defineJob, jobType, registerJob } from "../../src/jobs/definition.ts";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { JobWorker } from "../../src/jobs/worker.ts";
import type { Logger } from "../../src/log.ts";
import { waitFor } from "../courses/helpers.ts";
import { manualClock } from "../helpers/manual-clock.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const HOLD = jobType("test.turns", Type.Object({ name: Type.String() }));
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, access() {} };

interface HeldRun {
  name: string;
  finish(): void;
}

let dir: string;
let sqlite: Database;
let runs: HeldRun[];
let worker: JobWorker | null;

const holdJob = defineJob(HOLD, () => ({
  run: (_job, { name }) =>
    new Promise<unknown>((resolve) => {
      runs.push({ name, finish: () => resolve({}) });
    }),
}));

const clock = manualClock();
async function start(concurrency: number): Promise<void> {
  worker = new JobWorker(sqliteSql(sqlite), quiet, [registerJob(holdJob, {})], {
    concurrency,
    leaseSeconds: 60,
    maxStalls: 3,
    clock,
    pollMs: 10,
  });
  await worker.start();
}

/** `name` is "tenant/learner/n". */
const enqueue = async (name: string) => {
  const [tenant, learner] = name.split("/");
  await enqueueJob(
    { sql: sqliteSql(sqlite), clock },
    { type: HOLD, payload: { name }, tenantId: tenant!, userId: learner! },
  );
};
const started = () => runs.map((r) => r.name);
const running = (n: number) =>
  waitFor(
    `${n} runs`,
    async () => runs.length,
    (c) => c >= n,
    10_000,
    5,
  );
/** Finishes the oldest unfinished run, or the one named. */
const done = new Set<HeldRun>();
const finishRun = (r: HeldRun) => {
  done.add(r);
  r.finish();
};
const finishNext = () => finishRun(runs.find((r) => !done.has(r))!);
const finish = (name: string) => finishRun(runs.find((r) => r.name === name)!);

beforeEach(async () => {
  dir = tempDir("cf-turns-");
  sqlite = (await openDb(dir)).sqlite;
  sqlite.run("INSERT INTO tenants (id, name, created_at) VALUES ('acme', 'acme', ''), ('globex', 'globex', '')");
  runs = [];
  done.clear();
  worker = null;
});
afterEach(async () => {
  for (const r of runs) if (!done.has(r)) finishRun(r);
  await worker?.stop(1_000);
  sqlite.close();
  cleanup(dir);
});

test("behind one tenant's backlog, another tenant's first job runs next", async () => {
  for (let i = 1; i <= 6; i++) await enqueue(`acme/ada/${i}`);
  await start(1);
  await running(1);
  await enqueue("globex/kim/1");
  for (let n = 2; n <= 4; n++) {
    finishNext();
    await running(n);
  }
  expect(started()).toEqual(["acme/ada/1", "globex/kim/1", "acme/ada/2", "acme/ada/3"]);
});

test("within a tenant, learners take turns", async () => {
  for (let i = 1; i <= 3; i++) await enqueue(`acme/ada/${i}`);
  await enqueue("acme/bob/1");
  await start(1);
  for (let n = 1; n <= 4; n++) {
    await running(n);
    finishNext();
  }
  expect(started()).toEqual(["acme/ada/1", "acme/bob/1", "acme/ada/2", "acme/ada/3"]);
});

test("a tenant alone uses every slot; while another waits it keeps its share and the other gets the next", async () => {
  for (let i = 1; i <= 4; i++) await enqueue(`acme/ada/${i}`);
  await start(3);
  await running(3);
  expect(started()).toEqual(["acme/ada/1", "acme/ada/2", "acme/ada/3"]);
  await enqueue("globex/kim/1");
  await enqueue("globex/kim/2");
  finish("acme/ada/1");
  await running(4);
  expect(started().at(-1)).toBe("globex/kim/1");
  // acme, served longest ago, would be next; but it holds JOB_TENANT_SHARE (concurrency − 1 = 2)
  // slots while globex waits, so globex's second job takes the free one.
  finish("globex/kim/1");
  await running(5);
  expect(started().at(-1)).toBe("globex/kim/2");
});
