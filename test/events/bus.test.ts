/**
 * The event bus (src/events/bus.ts) as the job queue uses it. On SQLite an enqueue is heard in
 * process. On PostgreSQL two clients of one throwaway cluster stand for two nodes: what one
 * records is heard by the other only once committed (never when rolled back), with the id to
 * re-read the row by; a worker on one node whose next poll is far off runs a job the other queued;
 * a listening connection that is cut comes back, says so, and hears again.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { SQL } from "bun";
import { systemClock } from "../../src/clock.ts";
import { openDb } from "../../src/db/index.ts";
import { migratePostgres } from "../../src/db/postgres/migrate.ts";
import { postgresSql, type Sql, sql, sqliteSql } from "../../src/db/sql.ts";
import { CHANNELS, type Channel, type EventBus, localBus, postgresBus } from "../../src/events/bus.ts";
import { defineJob, jobType, registerJob } from "../../src/jobs/definition.ts";
import { claimNext, finishRun } from "../../src/jobs/leases.ts";
import { enqueueJob, getJob } from "../../src/jobs/queue.ts";
import { JobWorker } from "../../src/jobs/worker.ts";
import type { Logger } from "../../src/log.ts";
import { waitFor } from "../courses/helpers.ts";
import { startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, access() {} };
const kind = (name: string) => jobType(`test.bus.${name}`, Type.Object({ n: Type.Optional(Type.Number()) }));
const enqueue = (db: Sql, name: string) =>
  enqueueJob({ sql: db, clock: systemClock }, { type: kind(name), payload: {} });

/** Every id `bus` announces on `channel`, and how many times it said announcements may have been lost. */
async function heard(bus: EventBus, channel: Channel) {
  const ids: string[] = [];
  const state = { ids, resyncs: 0 };
  const stop = await bus.subscribe(
    channel,
    (id) => ids.push(id),
    () => state.resyncs++,
  );
  return { state, stop };
}

describe("the event bus on SQLite", () => {
  const dir = tempDir("cf-bus-");
  let sqlite: Awaited<ReturnType<typeof openDb>>["sqlite"];
  beforeAll(async () => {
    ({ sqlite } = await openDb(dir));
  });
  afterAll(() => {
    sqlite.close();
    cleanup(dir);
  });

  test("a queued job is announced in process with its id", async () => {
    const { state, stop } = await heard(localBus(sqlite), CHANNELS.jobQueued);
    const job = await enqueue(sqliteSql(sqlite), "local");
    await waitFor(
      "the announcement",
      async () => state.ids,
      (ids) => ids.length > 0,
      10_000,
      5,
    );
    expect(state.ids).toEqual([job.id]);
    await stop();
    await enqueue(sqliteSql(sqlite), "local");
    await Bun.sleep(20);
    expect(state.ids).toEqual([job.id]);
  });
});

describe("the event bus on PostgreSQL, two nodes", () => {
  let pg: TestPostgres;
  let clientA: SQL;
  let clientB: SQL;
  let nodeA: Sql;
  let nodeB: Sql;
  let busB: EventBus;
  const workers: JobWorker[] = [];

  beforeAll(async () => {
    pg = await startPostgres();
    await migratePostgres(pg.client);
    clientA = new SQL({ url: pg.url, max: 2 });
    clientB = new SQL({ url: pg.url, max: 2 });
    nodeA = postgresSql(clientA);
    nodeB = postgresSql(clientB);
    busB = postgresBus(clientB);
  }, 120_000);
  afterAll(async () => {
    for (const w of workers) await w.stop(1_000);
    await clientA?.close();
    await clientB?.close();
    await pg?.stop();
  });

  test("a job queued on one node is heard on the other once committed, and the row re-read there", async () => {
    const { state, stop } = await heard(busB, CHANNELS.jobQueued);
    let inTransaction = "";
    await nodeA.transaction(async (tx) => {
      inTransaction = (await enqueue(tx, "committed")).id;
      await Bun.sleep(200);
      // Not before the commit: the other node would re-read a row it cannot see yet.
      expect(state.ids).toEqual([]);
    });
    const ids = await waitFor(
      "the announcement",
      async () => state.ids,
      (ids) => ids.length > 0,
      30_000,
      10,
    );
    expect(ids).toEqual([inTransaction]);
    expect(await getJob(nodeB, ids[0]!)).toMatchObject({ id: inTransaction, status: "queued" });
    await stop();
  }, 60_000);

  test("a rolled-back enqueue is never announced", async () => {
    const { state, stop } = await heard(busB, CHANNELS.jobQueued);
    await expect(
      nodeA.transaction(async (tx) => {
        await enqueue(tx, "rolled-back");
        throw new Error("changed its mind");
      }),
    ).rejects.toThrow("changed its mind");
    // A committed one after it: once it is heard, the rolled-back one would have been too.
    const later = await enqueue(nodeA, "after-rollback");
    const ids = await waitFor(
      "the later announcement",
      async () => state.ids,
      (ids) => ids.length > 0,
      30_000,
      10,
    );
    expect(ids).toEqual([later.id]);
    await stop();
  }, 60_000);

  test("a job ended on one node is announced to the other's followers", async () => {
    const { state, stop } = await heard(busB, CHANNELS.jobEnded);
    const job = await enqueue(nodeA, "ended");
    const lease = { owner: "node-a:1:test", token: crypto.randomUUID() };
    const claimed = await claimNext(nodeA, {
      ...lease,
      types: [kind("ended").type],
      now: new Date().toISOString(),
      leaseUntil: new Date(Date.now() + 60_000).toISOString(),
      served: {},
      fullTenants: [],
    });
    expect(claimed?.id).toBe(job.id);
    expect(state.ids).toEqual([]);
    await finishRun(nodeA, job.id, lease, {
      status: "completed",
      result: "{}",
      error: null,
      now: new Date().toISOString(),
    });
    const ids = await waitFor(
      "the end announced",
      async () => state.ids,
      (ids) => ids.length > 0,
      30_000,
      10,
    );
    expect(ids).toEqual([job.id]);
    expect(await getJob(nodeB, job.id)).toMatchObject({ status: "completed" });
    await stop();
  }, 60_000);

  test("an idle worker on one node runs at once a job queued on the other, not at its next poll", async () => {
    const ran: string[] = [];
    const name = "wake-up";
    const job = defineJob(kind(name), () => ({
      run: async (j) => {
        ran.push(j.id);
        return {};
      },
    }));
    const worker = new JobWorker(nodeB, quiet, [registerJob(job, {})], {
      concurrency: 1,
      leaseSeconds: 30,
      maxStalls: 1,
      clock: systemClock,
      // Far beyond the test's time: only the announcement can start the job.
      pollMs: 3_600_000,
      events: busB,
    });
    workers.push(worker);
    await worker.start();
    // Whatever the start's first claim and the end of a run schedule has settled into the long poll.
    const first = await enqueue(nodeA, name);
    await waitFor(
      "the first job run",
      () => getJob(nodeB, first.id),
      (j) => j?.status === "completed",
      60_000,
      20,
    );
    await Bun.sleep(1_000);
    const second = await enqueue(nodeA, name);
    const done = await waitFor(
      "the second job run",
      () => getJob(nodeB, second.id),
      (j) => j?.status === "completed",
      60_000,
      20,
    );
    expect(done?.attempts).toBe(1);
    expect(ran).toEqual([first.id, second.id]);
  }, 120_000);

  test("a cut listening connection comes back, asks its readers to re-read, and hears again", async () => {
    const { state, stop } = await heard(busB, CHANNELS.jobQueued);
    const cut = await nodeA.all<{ ok: boolean }>(
      sql`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
           WHERE pid <> pg_backend_pid() AND datname = current_database() AND query ILIKE 'LISTEN%'`,
    );
    expect(cut.length).toBeGreaterThan(0);
    await waitFor(
      "the resync",
      async () => state.resyncs,
      (n) => n > 0,
      60_000,
      20,
    );
    const job = await enqueue(nodeA, "after-cut");
    const ids = await waitFor(
      "the announcement",
      async () => state.ids,
      (ids) => ids.includes(job.id),
      30_000,
      10,
    );
    expect(ids).toEqual([job.id]);
    await stop();
  }, 120_000);
});
