/**
 * Which failures a job is run again for, in process with a manual clock: a refusal of the job's own
 * input (a 4xx error such as SOURCES_FAILED or TOPIC_NOT_COVERED) ends the job at its first attempt,
 * since the next run would read the same input; a failure of something outside it (the model server,
 * a rate limit, a full disk) is retried after its delay.
 */
import type { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { openDb } from "../../src/db/index.ts";
import { sql, sqliteSql } from "../../src/db/sql.ts";
import { AppError, type ErrorCode } from "../../src/errors.ts";
import { defineJob, jobType, registerJob } from "../../src/jobs/definition.ts";
import { enqueueJob, type JobRow } from "../../src/jobs/queue.ts";
import { JobWorker } from "../../src/jobs/worker.ts";
import type { Logger } from "../../src/log.ts";
import { waitFor } from "../courses/helpers.ts";
import { type ManualClock, manualClock } from "../helpers/manual-clock.ts";
import { countLooks, type LookedDb } from "../helpers/queue-looks.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const FAIL = jobType("test.fail", Type.Object({ code: Type.String() }));

let dir: string;
let sqlite: Database;
let clock: ManualClock;
let worker: JobWorker;
let runs: string[];
let failures: string[];
let looked: LookedDb;

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, access() {} };

const failingJob = defineJob(FAIL, () => ({
  run: async (job, { code }) => {
    runs.push(job.id);
    throw new AppError(code as ErrorCode, `failed with ${code}`);
  },
  onFailure: (job) => {
    failures.push(job.id);
  },
}));

beforeEach(async () => {
  dir = tempDir("cf-permanent-");
  sqlite = (await openDb(dir)).sqlite;
  clock = manualClock();
  runs = [];
  failures = [];
  looked = countLooks(sqliteSql(sqlite));
  worker = new JobWorker(looked.sql, quiet, [registerJob(failingJob, {})], {
    concurrency: 2,
    leaseSeconds: 30,
    maxStalls: 3,
    clock,
    pollMs: 20,
  });
  await worker.start();
});
afterEach(async () => {
  await worker.stop(1_000);
  sqlite.close();
  cleanup(dir);
});

const row = (id: string): JobRow => sqliteSql(sqlite).getSync<JobRow>(sql`SELECT * FROM jobs WHERE id = ${id}`)!;

/** The job's row once its run number `attempt` has ended (failed, or queued for the next). */
const ended = (id: string, attempt: number) =>
  waitFor(
    `run ${attempt} of job ${id} to end`,
    async () => row(id),
    (r) => r.attempts === attempt && (r.status === "failed" || r.status === "queued"),
    10_000,
    10,
  );

/** Queues a job that fails with `code` (three attempts allowed) and waits for its first run to end. */
async function firstRun(code: ErrorCode): Promise<JobRow> {
  const id = (await enqueueJob({ sql: sqliteSql(sqlite), clock }, { type: FAIL, payload: { code }, maxAttempts: 3 }))
    .id;
  return ended(id, 1);
}

test.each(["SOURCES_FAILED", "TOPIC_NOT_COVERED", "COURSE_SOURCES_TOO_LARGE", "NOT_FOUND", "TTS_UNAVAILABLE"] as const)(
  "a job refused for its own input (%s) fails at its first attempt, and is not run again",
  async (code) => {
    const first = await firstRun(code);
    expect(first).toMatchObject({ status: "failed", attempts: 1 });
    expect(JSON.parse(first.error!).code).toBe(code);
    expect(failures).toEqual([first.id]);
    // Past every retry delay, nothing runs it again: a look begun after the move has ended, and run nothing.
    clock.advance(3_600_000);
    const seen = looked.looks();
    await waitFor(
      "two looks at the queue past the delay",
      async () => looked.looks(),
      (n) => n >= seen + 2,
      10_000,
      5,
    );
    expect(runs).toEqual([first.id]);
    expect(row(first.id).status).toBe("failed");
  },
);

test.each(["LLM_UNAVAILABLE", "LLM_TIMEOUT", "RATE_LIMITED", "INSUFFICIENT_STORAGE", "FETCH_FAILED"] as const)(
  "a job failed by something outside its input (%s) is run again after its delay, up to its attempts",
  async (code) => {
    const first = await firstRun(code);
    expect(first).toMatchObject({ status: "queued", attempts: 1 });
    expect(JSON.parse(first.error!).code).toBe(code);
    expect(failures).toEqual([]);
    // Each retry is due an hour later at the latest (5 s, then 20 s by default).
    clock.advance(3_600_000);
    expect(await ended(first.id, 2)).toMatchObject({ status: "queued" });
    clock.advance(3_600_000);
    expect(await ended(first.id, 3)).toMatchObject({ status: "failed" });
    expect(runs).toEqual([first.id, first.id, first.id]);
    expect(failures).toEqual([first.id]);
  },
);
