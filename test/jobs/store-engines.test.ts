/**
 * The job queue's storage (src/jobs: queue.ts and leases.ts) on both engines: SQLite (the
 * server's) and PostgreSQL (a throwaway cluster). A job goes to one claimer however many race for
 * it; a run whose lease was taken over writes nothing; a dead owner's lease is taken over once,
 * its stall counted once; tenants take turns. On PostgreSQL across connections the claim skips
 * the rows another claimer holds (FOR UPDATE SKIP LOCKED). Two workers (as two nodes) on one
 * database run each job once, and a job's `onFailure` writes in the transaction that fails it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { systemClock } from "../../src/clock.ts";
import { type Sql, sql } from "../../src/db/sql.ts";
import { AppError } from "../../src/errors.ts";
import { defineJob, jobType, registerJob } from "../../src/jobs/definition.ts";
import {
  type ClaimRequest,
  claimNext,
  expiredLeases,
  finishRun,
  giveBack,
  type Lease,
  renewLease,
  requeueStalled,
} from "../../src/jobs/leases.ts";
import { enqueueJob, getJob, type JobRow } from "../../src/jobs/queue.ts";
import { JobWorker } from "../../src/jobs/worker.ts";
import type { Logger } from "../../src/log.ts";
import { ensureTenant } from "../../src/tenants/keys.ts";
import { waitFor } from "../courses/helpers.ts";
import { ENGINES, type Engine, postgresEngine } from "../helpers/engines.ts";
import { manualClock } from "../helpers/manual-clock.ts";
import { slowWrites } from "../helpers/slow-writes.ts";

const LEASE_SECONDS = 30;

/** A job type of its own per test, so the tests of one database do not claim each other's jobs. */
const kindOf = (name: string) => jobType(`test.${name}`, Type.Object({ n: Type.Optional(Type.Number()) }));

/** The queue of one job type on one database, with a clock the test moves. */
function queueOf(db: Sql, name: string) {
  const kind = kindOf(name);
  const clock = manualClock();
  const iso = () => clock.now().toISOString();
  const leaseOf = (owner: string): Lease => ({ owner, token: crypto.randomUUID() });
  return {
    clock,
    iso,
    kind,
    enqueue: async (opts: { tenantId?: string; userId?: string; n?: number } = {}) => {
      const job = await enqueueJob(
        { sql: db, clock },
        { type: kind, tenantId: opts.tenantId, userId: opts.userId, payload: { n: opts.n } },
      );
      // Each job a moment after the last, so "the oldest first" has one answer.
      clock.advance(1);
      return job;
    },
    claim: (lease: Lease, turns: Partial<Pick<ClaimRequest, "served" | "fullTenants">> = {}, on: Sql = db) =>
      claimNext(on, {
        ...lease,
        now: iso(),
        leaseUntil: new Date(clock.now().getTime() + LEASE_SECONDS * 1000).toISOString(),
        types: [kind.type],
        fullTenants: turns.fullTenants ?? [],
        served: turns.served ?? {},
      }),
    leaseOf,
  };
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, access() {} };

const nOf = (job: JobRow | null) => (job ? (JSON.parse(job.payload) as { n?: number }).n : null);

describe.each(ENGINES)("the job queue on %s", (_, open) => {
  let e: Engine;
  let acme: string;
  let globex: string;

  // initdb on a loaded machine takes longer than a hook's default 5 s.
  beforeAll(async () => {
    e = await open();
    acme = (await ensureTenant(e.db, "acme")).id;
    globex = (await ensureTenant(e.db, "globex")).id;
  }, 120_000);
  afterAll(() => e?.close());

  test("a job is claimed once when claimers race for it", async () => {
    const q = queueOf(e.db, "race");
    const job = await q.enqueue();
    const leases = Array.from({ length: 6 }, (_, i) => q.leaseOf(`node-${i}`));
    const claims = await Promise.all(leases.map((l) => q.claim(l)));
    const won = claims.filter((c) => c !== null);
    expect(won.map((c) => c.id)).toEqual([job.id]);
    const winner = leases.find((l) => l.owner === won[0]!.lease_owner)!;
    expect(await getJob(e.db, job.id)).toMatchObject({
      status: "running",
      attempts: 1,
      lease_owner: winner.owner,
      lease_token: winner.token,
    });
  });

  test("a stale owner's completion, heartbeat and give-back change nothing once its lease was taken over", async () => {
    const q = queueOf(e.db, "stale");
    const job = await q.enqueue();
    const stale = q.leaseOf("node-a");
    const first = (await q.claim(stale))!;
    q.clock.advance((LEASE_SECONDS + 1) * 1000);

    const expired = await expiredLeases(e.db, q.iso(), "node-b", [q.kind.type]);
    expect(expired.map((j) => j.id)).toEqual([job.id]);
    expect(await requeueStalled(e.db, first, first.stalls + 1, q.iso())).toBe(true);
    const fresh = q.leaseOf("node-b");
    expect((await q.claim(fresh))?.id).toBe(job.id);

    const end = { status: "completed" as const, result: '{"by":"a"}', error: null, now: q.iso() };
    expect(await finishRun(e.db, job.id, stale, end)).toBe(false);
    expect(await renewLease(e.db, job.id, stale, q.iso())).toBe(false);
    expect(await giveBack(e.db, job.id, stale, q.iso())).toBe(false);
    expect(await getJob(e.db, job.id)).toMatchObject({
      status: "running",
      result: null,
      lease_owner: "node-b",
      lease_token: fresh.token,
      attempts: 2,
      stalls: 1,
    });

    expect(await finishRun(e.db, job.id, fresh, { ...end, result: '{"by":"b"}' })).toBe(true);
    expect(await getJob(e.db, job.id)).toMatchObject({ status: "completed", result: '{"by":"b"}', lease_owner: null });
  });

  test("a dead owner's lease is taken over once: two nodes recovering it count one stall", async () => {
    const q = queueOf(e.db, "dead");
    const job = await q.enqueue();
    await q.claim(q.leaseOf("node-dead"));
    // Not before the lease runs out, and never by its own owner.
    expect(await expiredLeases(e.db, q.iso(), "node-b", [q.kind.type])).toEqual([]);
    q.clock.advance((LEASE_SECONDS + 1) * 1000);
    expect(await expiredLeases(e.db, q.iso(), "node-dead", [q.kind.type])).toEqual([]);

    const seenByB = await expiredLeases(e.db, q.iso(), "node-b", [q.kind.type]);
    const seenByC = await expiredLeases(e.db, q.iso(), "node-c", [q.kind.type]);
    const moved = await Promise.all([
      requeueStalled(e.db, seenByB[0]!, seenByB[0]!.stalls + 1, q.iso()),
      requeueStalled(e.db, seenByC[0]!, seenByC[0]!.stalls + 1, q.iso()),
    ]);
    expect(moved.sort()).toEqual([false, true]);
    expect(await getJob(e.db, job.id)).toMatchObject({
      status: "queued",
      stalls: 1,
      attempts: 1,
      lease_owner: null,
      lease_token: null,
    });
    const next = (await q.claim(q.leaseOf("node-b")))!;
    expect(next).toMatchObject({ id: job.id, attempts: 2, stalls: 1, lease_owner: "node-b" });
  });

  test("a graceful give-back hands the attempt back", async () => {
    const q = queueOf(e.db, "give-back");
    const job = await q.enqueue();
    const lease = q.leaseOf("node-a");
    await q.claim(lease);
    expect(await giveBack(e.db, job.id, lease, q.iso())).toBe(true);
    expect(await getJob(e.db, job.id)).toMatchObject({ status: "queued", attempts: 0, stalls: 0, lease_owner: null });
  });

  test("tenants take turns: the one served longest ago first, then its learner served longest ago", async () => {
    const q = queueOf(e.db, "turns");
    for (let n = 1; n <= 3; n++) await q.enqueue({ tenantId: acme, userId: "ada", n });
    await q.enqueue({ tenantId: acme, userId: "bob", n: 4 });
    await q.enqueue({ tenantId: globex, userId: "cy", n: 5 });
    const type = q.kind.type;
    const lease = () => q.leaseOf("node-a");

    // Never served: the oldest job first.
    expect(nOf(await q.claim(lease()))).toBe(1);
    // acme was just served: globex's job, though younger, goes before acme's backlog.
    const served = { [`${type}|${acme}`]: 1, [`${type}|${acme}|ada`]: 1 };
    expect(nOf(await q.claim(lease(), { served }))).toBe(5);
    // Within acme, bob (never served) before ada's next.
    const afterGlobex = { ...served, [`${type}|${globex}`]: 2, [`${type}|${globex}|cy`]: 2 };
    expect(nOf(await q.claim(lease(), { served: afterGlobex }))).toBe(4);
    // A tenant at its share takes no slot while it is full.
    expect(await q.claim(lease(), { fullTenants: [`${type}|${acme}`] })).toBeNull();
    expect(nOf(await q.claim(lease()))).toBe(2);
  });
});

describe.each(ENGINES)("job workers on %s", (_, open) => {
  let e: Engine;
  const workers: JobWorker[] = [];
  const workerOn = (db: Sql, job: Parameters<typeof registerJob>[0]) => {
    const w = new JobWorker(db, quiet, [registerJob(job, {})], {
      concurrency: 2,
      leaseSeconds: LEASE_SECONDS,
      maxStalls: 3,
      // The real time: the jobs are queued at the time of the queue's clock, and come due as it passes.
      clock: systemClock,
      pollMs: 10,
    });
    workers.push(w);
    return w;
  };

  beforeAll(async () => {
    e = await open();
  }, 120_000);
  afterAll(async () => {
    for (const w of workers) await w.stop(1_000);
    await e?.close();
  });

  test("two workers on one database run each job once", async () => {
    const kind = kindOf("two-workers");
    const ran: number[] = [];
    const counted = defineJob(kind, () => ({
      run: async (_job, { n }) => {
        ran.push(n!);
        return { n };
      },
    }));
    await Promise.all([workerOn(e.db, counted).start(), workerOn(e.db, counted).start()]);
    const q = queueOf(e.db, "two-workers");
    for (let n = 0; n < 8; n++) await q.enqueue({ n });
    const done = await waitFor(
      "every job completed",
      () =>
        e.db.all<{ status: string; result: string }>(sql`SELECT status, result FROM jobs WHERE type = ${kind.type}`),
      (rows) => rows.every((r) => r.status === "completed"),
      30_000,
      20,
    );
    expect(done).toHaveLength(8);
    expect([...ran].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  }, 60_000);

  test("a job that fails for good: its onFailure writes in the transaction that fails it", async () => {
    const kind = kindOf("on-failure");
    const refused = defineJob(kind, () => ({
      run: async () => {
        throw new AppError("NOT_FOUND", "gone");
      },
      onFailure: async (job, reason, _payload, tx) => {
        await tx.run(sql`UPDATE jobs SET result = ${`noted ${reason.code}`} WHERE id = ${job.id}`);
      },
    }));
    await workerOn(e.db, refused).start();
    const job = await queueOf(e.db, "on-failure").enqueue();
    const row = await waitFor(
      "the job failed",
      () => getJob(e.db, job.id),
      (r) => r?.status === "failed",
      30_000,
      20,
    );
    expect(row).toMatchObject({ status: "failed", result: "noted NOT_FOUND", attempts: 1 });
    expect(JSON.parse(row!.error!)).toMatchObject({ code: "NOT_FOUND" });
  }, 60_000);
});

describe("claims on several PostgreSQL connections at once", () => {
  let e: Engine;

  beforeAll(async () => {
    e = await postgresEngine();
    // Each claim holds its transaction open a while after it picked its row, so the other
    // claimers pick theirs while it has not committed: without the row lock and SKIP LOCKED
    // they would pick the same job and come back empty (or claim it twice).
    await slowWrites(e.db, { table: "jobs", on: "UPDATE", seconds: 0.3 });
  }, 120_000);
  afterAll(() => e?.close());

  test("claimers racing for as many jobs each take a different one", async () => {
    const q = queueOf(e.db, "fan-out");
    const jobs = [];
    for (let n = 0; n < 4; n++) jobs.push(await q.enqueue({ n }));
    const claims = await Promise.all(jobs.map((_, i) => q.claim(q.leaseOf(`node-${i}`))));
    expect(claims.every((c) => c !== null)).toBe(true);
    expect(claims.map((c) => c!.id).sort()).toEqual(jobs.map((j) => j.id).sort());
    const rows = await e.db.all<{ lease_owner: string; attempts: number }>(
      sql`SELECT lease_owner, attempts FROM jobs WHERE type = ${q.kind.type} ORDER BY lease_owner`,
    );
    expect(rows).toEqual([0, 1, 2, 3].map((i) => ({ lease_owner: `node-${i}`, attempts: 1 })));
  }, 30_000);

  test("a claimer passes over a job another node holds instead of waiting for it", async () => {
    const q = queueOf(e.db, "held");
    const held = await q.enqueue({ n: 1 });
    const free = await q.enqueue({ n: 2 });
    let release!: () => void;
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // Another node's claim of the oldest job, still open.
    const other = e.db.transaction(async (tx) => {
      await tx.get(sql`SELECT id FROM jobs WHERE id = ${held.id} FOR UPDATE`);
      locked();
      await holding;
    });
    await isLocked;
    // A bound that holds on a loaded machine: a claim that waits for the lock waits until release.
    const claimed = await Promise.race([q.claim(q.leaseOf("node-b")), Bun.sleep(10_000).then(() => "waited")]);
    release();
    await other;
    expect(claimed).toMatchObject({ id: free.id, lease_owner: "node-b" });
    expect(await getJob(e.db, held.id)).toMatchObject({ status: "queued" });
  }, 30_000);
});
