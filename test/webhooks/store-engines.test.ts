/**
 * The webhooks owner's storage, run the same on both engines: SQLite (the server's) and
 * PostgreSQL (a throwaway cluster, migrated by migratePostgres). Deliveries here are queued to a
 * recording queue (the job queue has its own engine tests, test/jobs/store-engines.test.ts); what
 * is checked is the webhooks' own rows: registration, the outbox, the attempt state machine and
 * the delivery log.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemClock } from "../../src/clock.ts";
import { type Sql, sql } from "../../src/db/sql.ts";
import { AppError } from "../../src/errors.ts";
import { ensureTenant } from "../../src/tenants/keys.ts";
import { type AttemptResult, pendingDeliveryForJob, recordAttempt } from "../../src/webhooks/attempts.ts";
import { deliveryLog } from "../../src/webhooks/delivery-log.ts";
import type { DeliveryAttemptJob, DeliveryQueue } from "../../src/webhooks/delivery-queue.ts";
import { queueEvent } from "../../src/webhooks/outbox.ts";
import {
  deleteWebhook,
  listWebhooks,
  MAX_WEBHOOKS_PER_TENANT,
  ownedWebhook,
  saveWebhook,
} from "../../src/webhooks/registration.ts";
import { ENGINES, type Engine } from "../helpers/engines.ts";

const tenantOf = async (db: Sql, name: string) => (await ensureTenant(db, name)).id;

const failed: AttemptResult = {
  ok: false,
  statusCode: 500,
  durationMs: 3,
  error: "receiver answered HTTP 500",
  startedAt: new Date().toISOString(),
};

describe.each(ENGINES)("webhooks storage on %s", (_, open) => {
  let e: Engine;
  let acme: string;
  let globex: string;
  const queued: DeliveryAttemptJob[] = [];
  const queue: DeliveryQueue = async (_tx, job) => {
    queued.push(job);
    return `job-${queued.length}`;
  };
  const deliveriesOf = (webhookId: string) =>
    e.db.all<{ id: string; status: string; attempts: number; job_id: string | null; event: string; body: string }>(
      sql`SELECT id, status, attempts, job_id, event, body FROM webhook_deliveries WHERE webhook_id = ${webhookId} ORDER BY rowid`,
    );

  // initdb on a loaded machine takes longer than a hook's default 5 s.
  beforeAll(async () => {
    e = await open();
    acme = await tenantOf(e.db, "acme");
    globex = await tenantOf(e.db, "globex");
  }, 120_000);
  afterAll(() => e?.close());

  test("registering, listing, registering again and deleting", async () => {
    const one = await saveWebhook(e.db, acme, { url: "https://a.example/one", events: ["course.completed"] });
    const two = await saveWebhook(e.db, acme, { url: "https://a.example/two", events: ["course.failed"] });
    expect([one.created, two.created]).toEqual([true, true]);
    expect((await listWebhooks(e.db, acme)).map((w) => w.id)).toEqual([two.webhook.id, one.webhook.id]);
    expect(await listWebhooks(e.db, globex)).toEqual([]);

    await e.db.run(sql`UPDATE webhooks SET active = 0 WHERE id = ${one.webhook.id}`);
    const again = await saveWebhook(e.db, acme, {
      url: "https://a.example/one",
      events: ["course.failed", "course.failed"],
    });
    expect(again.created).toBe(false);
    expect(again.webhook).toMatchObject({ id: one.webhook.id, active: true, events: ["course.failed"] });
    expect(again.webhook.secret).not.toBe(one.webhook.secret);
    expect((await ownedWebhook(e.db, acme, one.webhook.id)).secret).toBe(again.webhook.secret);

    await expect(ownedWebhook(e.db, globex, one.webhook.id)).rejects.toThrow(AppError);
    await expect(deleteWebhook(e.db, globex, two.webhook.id)).rejects.toThrow("No such webhook");
    await deleteWebhook(e.db, acme, two.webhook.id);
    expect((await listWebhooks(e.db, acme)).map((w) => w.id)).toEqual([one.webhook.id]);
  });

  test("registrations made at once stop at the tenant's limit", async () => {
    const many = await tenantOf(e.db, "many");
    const results = await Promise.allSettled(
      Array.from({ length: MAX_WEBHOOKS_PER_TENANT + 5 }, (_, i) =>
        saveWebhook(e.db, many, { url: `https://m.example/${i}`, events: ["course.completed"] }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_WEBHOOKS_PER_TENANT);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused.map((r) => (r.reason as AppError).code)).toEqual(Array(5).fill("WEBHOOK_LIMIT"));
    expect(await listWebhooks(e.db, many)).toHaveLength(MAX_WEBHOOKS_PER_TENANT);
  });

  test("an event becomes one delivery and one queued attempt per active subscribed webhook of its tenant", async () => {
    const t = await tenantOf(e.db, "outbox");
    const on = (await saveWebhook(e.db, t, { url: "https://o.example/on", events: ["course.completed"] })).webhook;
    const other = (await saveWebhook(e.db, t, { url: "https://o.example/failed", events: ["course.failed"] })).webhook;
    const off = (await saveWebhook(e.db, t, { url: "https://o.example/off", events: ["course.completed"] })).webhook;
    await e.db.run(sql`UPDATE webhooks SET active = 0 WHERE id = ${off.id}`);
    const before = queued.length;
    const data = { course_id: "c1", title: "Tides" };
    await queueEvent(e.db, queue, systemClock, { tenantId: t, event: "course.completed", data });

    const [d, ...more] = await deliveriesOf(on.id);
    expect(more).toEqual([]);
    expect(d).toMatchObject({ status: "pending", attempts: 0, event: "course.completed" });
    expect(JSON.parse(d!.body)).toEqual({ event: "course.completed", data });
    expect(queued.slice(before)).toEqual([{ tenantId: t, deliveryId: d!.id, runAfter: expect.any(Date) }]);
    expect(d!.job_id).toBe(`job-${queued.length}`);
    expect(await deliveriesOf(other.id)).toEqual([]);
    expect(await deliveriesOf(off.id)).toEqual([]);
  });

  test("an event recorded in a transaction that rolls back leaves no delivery", async () => {
    const t = await tenantOf(e.db, "rollback");
    const w = (await saveWebhook(e.db, t, { url: "https://r.example/x", events: ["course.failed"] })).webhook;
    await expect(
      e.db.transaction(async (tx) => {
        await queueEvent(tx, queue, systemClock, { tenantId: t, event: "course.failed", data: {} });
        expect(await tx.all(sql`SELECT id FROM webhook_deliveries WHERE webhook_id = ${w.id}`)).toHaveLength(1);
        throw new Error("course update failed");
      }),
    ).rejects.toThrow("course update failed");
    expect(await deliveriesOf(w.id)).toEqual([]);
  });

  test("failed attempts are retried on the schedule, then the webhook turns inactive and its other deliveries end", async () => {
    const t = await tenantOf(e.db, "attempts");
    const w = (await saveWebhook(e.db, t, { url: "https://s.example/a", events: ["course.completed"] })).webhook;
    await queueEvent(e.db, queue, systemClock, { tenantId: t, event: "course.completed", data: { n: 1 } });
    await queueEvent(e.db, queue, systemClock, { tenantId: t, event: "course.completed", data: { n: 2 } });
    const [first, second] = await deliveriesOf(w.id);
    const deps = { db: e.db, queue, clock: systemClock };
    let jobId = first!.job_id!;
    const outcomes: string[] = [];
    for (let i = 0; i < 2; i++) {
      const d = (await pendingDeliveryForJob(e.db, first!.id, jobId))!;
      expect(d).toMatchObject({ attempts: i, url: "https://s.example/a", active: 1 });
      outcomes.push(await recordAttempt(deps, d, failed, [60]));
      expect(await pendingDeliveryForJob(e.db, first!.id, jobId)).toBeNull();
      jobId = (await deliveriesOf(w.id))[0]!.job_id ?? "";
    }
    expect(outcomes).toEqual(["retrying", "failed"]);
    const [a, b] = await deliveriesOf(w.id);
    expect(a).toMatchObject({ status: "failed", attempts: 2, job_id: null });
    expect(b).toMatchObject({ id: second!.id, status: "canceled", job_id: null });
    expect((await ownedWebhook(e.db, t, w.id)).active).toBe(false);

    const log = await deliveryLog(e.db, t, w.id, 1);
    expect(log.data.map((x) => x.id)).toEqual([second!.id]);
    expect(log.pagination.has_more).toBe(true);
    const next = await deliveryLog(e.db, t, w.id, 1, log.pagination.next_cursor);
    expect(next.data).toEqual([
      expect.objectContaining({
        id: first!.id,
        status: "failed",
        attempt_count: 2,
        attempts: [
          expect.objectContaining({ attempt: 1, status_code: 500, ok: false }),
          expect.objectContaining({ attempt: 2, status_code: 500, ok: false }),
        ],
      }),
    ]);
    expect(next.pagination).toEqual({ limit: 1, has_more: false, next_cursor: null });
  });

  test("an attempt landing after its webhook was deleted changes nothing", async () => {
    const t = await tenantOf(e.db, "deleted");
    const w = (await saveWebhook(e.db, t, { url: "https://d.example/a", events: ["course.failed"] })).webhook;
    await queueEvent(e.db, queue, systemClock, { tenantId: t, event: "course.failed", data: {} });
    const [only] = await deliveriesOf(w.id);
    const d = (await pendingDeliveryForJob(e.db, only!.id, only!.job_id!))!;
    await deleteWebhook(e.db, t, w.id);
    expect(await recordAttempt({ db: e.db, queue, clock: systemClock }, d, failed, [1])).toBe("canceled");
    expect(await e.db.all(sql`SELECT id FROM webhook_attempts WHERE delivery_id = ${only!.id}`)).toEqual([]);
  });
});
