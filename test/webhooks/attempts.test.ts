/** The attempt state machine: schedule, exact attempt count, deactivation and stale jobs. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { systemClock } from "../../src/clock.ts";
import { type OpenedDb, openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { ensureTenant } from "../../src/tenants/keys.ts";
import { type AttemptResult, pendingDeliveryForJob, recordAttempt } from "../../src/webhooks/attempts.ts";
import { jobDeliveryQueue } from "../../src/webhooks/delivery-queue.ts";
import { queueEvent } from "../../src/webhooks/outbox.ts";
import { saveWebhook } from "../../src/webhooks/registration.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const dir = tempDir("cf-attempts-");
let o: OpenedDb;
let tenantId: string;

const failed: AttemptResult = {
  ok: false,
  statusCode: 500,
  durationMs: 3,
  error: "receiver answered HTTP 500",
  startedAt: new Date().toISOString(),
};
const row = (id: string) =>
  o.sqlite
    .query<{ status: string; attempts: number; job_id: string | null; next_attempt_at: string | null }, [string]>(
      "SELECT status, attempts, job_id, next_attempt_at FROM webhook_deliveries WHERE id = ?",
    )
    .get(id)!;
const deliveriesOf = (webhookId: string) =>
  o.sqlite
    .query<{ id: string; job_id: string }, [string]>(
      "SELECT id, job_id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY rowid",
    )
    .all(webhookId);

const db = () => sqliteSql(o.sqlite);
const queue = jobDeliveryQueue(systemClock);
const attemptDeps = () => ({ db: db(), queue: jobDeliveryQueue(systemClock), clock: systemClock });

beforeAll(async () => {
  o = await openDb(dir);
  tenantId = (await ensureTenant(sqliteSql(o.sqlite), "acme")).id;
});
afterAll(() => {
  o.sqlite.close();
  cleanup(dir);
});

test("with a schedule of two delays a delivery is tried three times, then the webhook turns inactive", async () => {
  const w = (await saveWebhook(db(), tenantId, { url: "https://r.example/a", events: ["course.completed"] })).webhook;
  await queueEvent(db(), queue, systemClock, { tenantId, event: "course.completed", data: { n: 1 } });
  await queueEvent(db(), queue, systemClock, { tenantId, event: "course.completed", data: { n: 2 } });
  const [first, second] = deliveriesOf(w.id);
  const schedule = [60, 300];
  const outcomes: string[] = [];
  let jobId = first!.job_id;
  for (let i = 0; i < 3; i++) {
    const d = (await pendingDeliveryForJob(db(), first!.id, jobId))!;
    expect(d.attempts).toBe(i);
    const before = Date.now();
    outcomes.push(await recordAttempt(attemptDeps(), d, failed, schedule));
    const after = row(first!.id);
    if (i < 2) {
      const wait = Date.parse(after.next_attempt_at!) - before;
      expect(wait).toBeGreaterThanOrEqual(schedule[i]! * 1000 - 5);
      expect(wait).toBeLessThan(schedule[i]! * 1000 + 1000);
      // The job that just ran is stale now: a re-run of it does nothing.
      expect(await pendingDeliveryForJob(db(), first!.id, jobId)).toBeNull();
      jobId = after.job_id!;
    }
  }
  expect(outcomes).toEqual(["retrying", "retrying", "failed"]);
  expect(row(first!.id)).toMatchObject({ status: "failed", attempts: 3, job_id: null });
  expect(
    o.sqlite.query<{ active: number }, [string]>("SELECT active FROM webhooks WHERE id = ?").get(w.id)!.active,
  ).toBe(0);
  // The other pending delivery of the deactivated webhook is canceled, and new events skip it.
  expect(row(second!.id).status).toBe("canceled");
  await queueEvent(db(), queue, systemClock, { tenantId, event: "course.completed", data: { n: 3 } });
  expect(deliveriesOf(w.id)).toHaveLength(2);
});

test("an attempt that lands after its webhook was deactivated is logged but not retried", async () => {
  const w = (await saveWebhook(db(), tenantId, { url: "https://r.example/b", events: ["course.failed"] })).webhook;
  await queueEvent(db(), queue, systemClock, { tenantId, event: "course.failed", data: {} });
  const [only] = deliveriesOf(w.id);
  const d = (await pendingDeliveryForJob(db(), only!.id, only!.job_id))!;
  o.sqlite.run("UPDATE webhook_deliveries SET status = 'canceled', job_id = NULL WHERE id = ?", [only!.id]);
  const jobsBefore = o.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs").get()!.n;
  expect(await recordAttempt(attemptDeps(), d, failed, [1, 1])).toBe("canceled");
  expect(row(only!.id)).toMatchObject({ status: "canceled", attempts: 1 });
  expect(o.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs").get()!.n).toBe(jobsBefore);
  expect(
    o.sqlite
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id = ?")
      .get(only!.id)!.n,
  ).toBe(1);
});

test("an attempt that lands after its webhook was deleted changes nothing and does not throw", async () => {
  const w = (await saveWebhook(db(), tenantId, { url: "https://r.example/c", events: ["course.failed"] })).webhook;
  await queueEvent(db(), queue, systemClock, { tenantId, event: "course.failed", data: {} });
  const [only] = deliveriesOf(w.id);
  const d = (await pendingDeliveryForJob(db(), only!.id, only!.job_id))!;
  o.sqlite.run("DELETE FROM webhooks WHERE id = ?", [w.id]);
  expect(await recordAttempt(attemptDeps(), d, failed, [1])).toBe("canceled");
  expect(
    o.sqlite
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id = ?")
      .get(only!.id)!.n,
  ).toBe(0);
  expect(await pendingDeliveryForJob(db(), only!.id, only!.job_id)).toBeNull();
});
