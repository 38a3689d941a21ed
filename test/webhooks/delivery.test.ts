/**
 * Webhooks end to end against the server in this process and a real HTTPS receiver on 127.0.0.1
 * (its self-signed certificate trusted through WEBHOOK_CA_FILE, allowed through OUTBOUND_ALLOW),
 * with the retry schedule shortened to 1 s; the retry schedule itself with the delivery job run by
 * a worker on a manual clock, so its delays pass without waiting; and deliveries surviving a
 * SIGKILL, the one case that needs a server process (the restart after it runs in this one).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type OpenedDb, openDb } from "../../src/db/index.ts";
import { inJsonArray, sql, sqliteSql } from "../../src/db/sql.ts";
import { registerJob } from "../../src/jobs/definition.ts";
import { JobWorker } from "../../src/jobs/worker.ts";
import type { Logger } from "../../src/log.ts";
import { ensureTenant } from "../../src/tenants/keys.ts";
import { deliveryJob } from "../../src/webhooks/delivery-job.ts";
import { deliveryLog } from "../../src/webhooks/delivery-log.ts";
import { jobDeliveryQueue } from "../../src/webhooks/delivery-queue.ts";
import type { EmittedEvent, SubscribableEvent } from "../../src/webhooks/events.ts";
import { queueEvent } from "../../src/webhooks/outbox.ts";
import { listWebhooks, saveWebhook } from "../../src/webhooks/registration.ts";
import { webhookSendOptions } from "../../src/webhooks/send.ts";
import { waitFor } from "../courses/helpers.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type ManualClock, manualClock } from "../helpers/manual-clock.ts";
import { call, cleanup, errorOf, startServer, tempDir } from "../helpers/server.ts";
import { emit } from "./emit.ts";
import { type Receiver, startReceiver, verifySignature } from "./receiver.ts";

const dir = tempDir("cf-webhooks-");
let rx: Receiver;
let srv: TestApp;
let key: string;
let otherKey: string;

const env = () => ({
  WEBHOOK_CA_FILE: rx.certFile,
  OUTBOUND_ALLOW: "127.0.0.1",
  WEBHOOK_RETRY_SCHEDULE: "1,1,1,1,1",
  WEBHOOK_TIMEOUT_MS: "3000",
  RATE_LIMIT_PER_MINUTE: "10000",
});

async function register(k: string, path: string, events?: string[]) {
  const r = await call(srv, "/v2/webhooks", {
    key: k,
    json: { url: rx.url + path, ...(events ? { events } : {}) },
  });
  if (r.status !== 201 && r.status !== 200) throw new Error(`registration failed: ${r.status} ${r.text}`);
  return r.body as { id: string; url: string; events: string[]; active: boolean; secret: string; created_at: string };
}

/** Waits until no delivery to the webhooks `ids` is pending: then none (nor a retry of one) is on its way. */
const delivered = (app: TestApp, ids: string[]) =>
  waitFor(
    "no delivery pending",
    () =>
      app.svc.sql.get<{ n: number }>(
        sql`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending' AND ${inJsonArray("webhook_id", ids)}`,
      ),
    (r) => Number(r!.n) === 0,
  );

const deliveries = async (k: string, id: string) =>
  (await call(srv, `/v2/webhooks/${id}/deliveries`, { key: k })).body.data as any[];
const completed = (n: number) => ({
  job_id: `job-${n}`,
  course_id: `course-${n}`,
  title: `Course ${n}`,
  chapters_count: 3,
  source_type: "topic",
});

beforeAll(async () => {
  rx = startReceiver(dir);
  srv = await startApp({ env: env() });
  key = await srv.createKey("acme", "test");
  otherKey = await srv.createKey("globex", "production");
});
afterAll(async () => {
  await srv.stop();
  rx.stop();
  cleanup(dir);
});

describe("registration", () => {
  test("registers with the default events and shows the secret only once", async () => {
    const r = await call(srv, "/v2/webhooks", { key, json: { url: `${rx.url}/reg` } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      url: `${rx.url}/reg`,
      events: ["course.completed", "course.failed", "job.progress"],
      active: true,
    });
    expect(r.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Date.parse(r.body.created_at)).toBeGreaterThan(Date.now() - 60_000);

    const list = await call(srv, "/v2/webhooks", { key });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((w: any) => w.id === r.body.id);
    expect(listed).toEqual({
      id: r.body.id,
      url: r.body.url,
      events: r.body.events,
      active: true,
      created_at: r.body.created_at,
    });
    expect(list.text).not.toContain("whsec_");
    expect(srv.output()).not.toContain(r.body.secret);

    const again = await call(srv, "/v2/webhooks", {
      key,
      json: { url: `${rx.url}/reg`, events: ["course.failed"] },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(r.body.id);
    expect(again.body.events).toEqual(["course.failed"]);
    expect(again.body.secret).not.toBe(r.body.secret);
  });

  test("invalid registrations are 422 with the error body and store nothing", async () => {
    const before = (await call(srv, "/v2/webhooks", { key })).body.data.length;
    const long = `${rx.url}/${"a".repeat(2049 - rx.url.length - 1)}`;
    expect(long.length).toBe(2049);
    const cases: unknown[] = [
      { url: `http://127.0.0.1:${rx.port}/plain` },
      { url: long },
      { url: `${rx.url}/x`, events: ["course.completed", "course.exploded"] },
      { url: `${rx.url}/x`, events: [] },
      { url: "not a url" },
      { url: `https://user:pw@127.0.0.1:${rx.port}/creds` },
      { events: ["course.failed"] },
    ];
    for (const json of cases) {
      const r = await call(srv, "/v2/webhooks", { key, json });
      expect({ json, status: r.status }).toEqual({ json, status: 422 });
      expect(errorOf(r).code).toBe("VALIDATION_ERROR");
    }
    const unknown = await call(srv, "/v2/webhooks", {
      key,
      json: { url: `${rx.url}/x`, events: ["course.completed", "podcast.episode_ready"] },
    });
    expect(errorOf(unknown).message).toContain('"podcast.episode_ready"');
    const exact = `${rx.url}/${"b".repeat(2048 - rx.url.length - 1)}`;
    expect((await call(srv, "/v2/webhooks", { key, json: { url: exact } })).status).toBe(201);
    expect((await call(srv, "/v2/webhooks", { key })).body.data.length).toBe(before + 1);
  });

  test("webhooks need only the API key, and another tenant's are 404", async () => {
    expect((await call(srv, "/v2/webhooks", { key: null, json: { url: `${rx.url}/nokey` } })).status).toBe(401);
    const w = await register(key, "/owned");
    for (const [method, path] of [
      ["DELETE", `/v2/webhooks/${w.id}`],
      ["POST", `/v2/webhooks/${w.id}/test`],
      ["GET", `/v2/webhooks/${w.id}/deliveries`],
    ] as const) {
      const r = await call(srv, path, { key: otherKey, method });
      expect(r.status).toBe(404);
      expect(errorOf(r).code).toBe("WEBHOOK_NOT_FOUND");
    }
    expect((await call(srv, "/v2/webhooks", { key: otherKey })).body.data.map((x: any) => x.id)).not.toContain(w.id);
    expect(rx.to("/owned")).toHaveLength(0);
    const del = await call(srv, `/v2/webhooks/${w.id}`, { key, method: "DELETE" });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await call(srv, `/v2/webhooks/${w.id}`, { key, method: "DELETE" })).status).toBe(404);
    expect((await call(srv, "/v2/webhooks", { key })).body.data.map((x: any) => x.id)).not.toContain(w.id);
  });
});

describe("test endpoint", () => {
  test("delivers a signed test event at once and reports the result", async () => {
    const w = await register(key, "/test-ok");
    const r = await call(srv, `/v2/webhooks/${w.id}/test`, { key, method: "POST" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ delivered: true, status_code: 200, error: null });
    expect(r.body.duration_ms).toBeGreaterThanOrEqual(0);
    const [got] = rx.to("/test-ok");
    expect(got).toBeDefined();
    expect(JSON.parse(got!.raw)).toEqual({ event: "test", data: { message: expect.any(String), webhook_id: w.id } });
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(got!.headers["x-service-event"]).toBe("test");
    expect(got!.headers["x-service-delivery"]).toBe(r.body.delivery_id);
    expect(verifySignature(w.secret, got!.raw, got!.headers["x-service-signature"])).toBe(true);
    expect(verifySignature(w.secret, got!.raw.replace("test", "tesT"), got!.headers["x-service-signature"])).toBe(
      false,
    );
    expect(verifySignature("whsec_other", got!.raw, got!.headers["x-service-signature"])).toBe(false);

    const log = await deliveries(key, w.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ id: r.body.delivery_id, event: "test", status: "delivered", attempt_count: 1 });
    expect(log[0].attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null, ok: true })]);
  });

  test("the delivery log pages newest first", async () => {
    const w = await register(key, "/paged");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await call(srv, `/v2/webhooks/${w.id}/test`, { key, method: "POST" })).body.delivery_id);
    const first = await call(srv, `/v2/webhooks/${w.id}/deliveries?limit=2`, { key });
    expect(first.body.pagination).toMatchObject({ limit: 2, has_more: true });
    const second = await call(
      srv,
      `/v2/webhooks/${w.id}/deliveries?limit=2&cursor=${first.body.pagination.next_cursor}`,
      { key },
    );
    expect(second.body.pagination).toEqual({ limit: 2, has_more: false, next_cursor: null });
    expect([...first.body.data, ...second.body.data].map((d: any) => d.id)).toEqual(ids.reverse());
    const bad = await call(srv, `/v2/webhooks/${w.id}/deliveries?cursor=nonsense`, { key });
    expect(bad.status).toBe(422);
  });

  test("a failing receiver is reported, logged and not retried", async () => {
    rx.reply("/test-500", 500);
    const w = await register(key, "/test-500");
    const r = await call(srv, `/v2/webhooks/${w.id}/test`, { key, method: "POST" });
    expect(r.body).toMatchObject({ delivered: false, status_code: 500 });
    expect(r.body.error).toContain("500");
    expect(rx.to("/test-500")).toHaveLength(1);
    // Ended, with no next attempt: nothing is left to retry it.
    const [entry] = await deliveries(key, w.id);
    expect(entry).toMatchObject({ status: "failed", attempt_count: 1, next_attempt_at: null });
    expect(entry.attempts[0]).toMatchObject({ status_code: 500, ok: false });
    expect((await call(srv, "/v2/webhooks", { key })).body.data.find((x: any) => x.id === w.id).active).toBe(true);
  });

  test("a receiver that does not answer within WEBHOOK_TIMEOUT_MS fails the attempt", async () => {
    rx.reply("/slow", "hang");
    const w = await register(key, "/slow");
    const started = Date.now();
    const r = await call(srv, `/v2/webhooks/${w.id}/test`, { key, method: "POST" });
    expect(r.body).toMatchObject({ delivered: false, status_code: null });
    expect(r.body.error).toContain("did not answer within 3 s");
    // The receiver never answers: only the 3 s timeout ends the attempt, and never before it is due.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
  });

  test("a redirect is not followed and fails the delivery", async () => {
    rx.reply("/redirect", { status: 302, headers: { location: `https://localhost:${rx.port}/sink` } });
    const w = await register(key, "/redirect");
    const r = await call(srv, `/v2/webhooks/${w.id}/test`, { key, method: "POST" });
    expect(r.body).toMatchObject({ delivered: false, status_code: 302 });
    expect(r.body.error).toContain("not followed");
    // The test delivery is made within the request: a followed redirect would have reached /sink before the answer.
    expect(rx.to("/redirect")).toHaveLength(1);
    expect(rx.to("/sink")).toHaveLength(0);
  });
});

describe("event delivery", () => {
  test("course events reach the subscribed webhooks with the exact signed body", async () => {
    const both = await register(key, "/ev-both");
    const failedOnly = await register(key, "/ev-failed", ["course.failed"]);
    await emit(srv.dataDir, key, "course.completed", completed(1));
    const [got] = await rx.waitFor("/ev-both", 1);
    expect(JSON.parse(got!.raw)).toEqual({ event: "course.completed", data: completed(1) });
    expect(got!.headers["x-service-event"]).toBe("course.completed");
    expect(verifySignature(both.secret, got!.raw, got!.headers["x-service-signature"])).toBe(true);
    // The receiver has the body before the server has its answer: the attempt is read once committed.
    const [entry] = await waitFor(
      "the attempt committed",
      () => deliveries(key, both.id),
      (d) => (d[0]?.attempt_count ?? 0) >= 1,
    );
    expect(entry).toMatchObject({
      id: got!.headers["x-service-delivery"],
      event: "course.completed",
      status: "delivered",
      attempt_count: 1,
    });
    expect(rx.to("/ev-failed")).toHaveLength(0);
    expect(await deliveries(key, failedOnly.id)).toHaveLength(0);
  });

  test("events are tenant-scoped: another tenant's webhook never receives them", async () => {
    const mine = await register(key, "/tenant-a", ["course.completed"]);
    const theirs = await register(otherKey, "/tenant-b", ["course.completed"]);
    await emit(srv.dataDir, key, "course.completed", completed(5));
    await rx.waitFor("/tenant-a", 1);
    await emit(srv.dataDir, otherKey, "course.completed", completed(6));
    const [b] = await rx.waitFor("/tenant-b", 1);
    await delivered(srv, [mine.id, theirs.id]);
    expect(rx.to("/tenant-a").map((g) => JSON.parse(g.raw).data.course_id)).toEqual(["course-5"]);
    expect(rx.to("/tenant-b").map((g) => JSON.parse(g.raw).data.course_id)).toEqual(["course-6"]);
    expect(verifySignature(theirs.secret, b!.raw, b!.headers["x-service-signature"])).toBe(true);
    expect(verifySignature(mine.secret, b!.raw, b!.headers["x-service-signature"])).toBe(false);
  });
});

describe("retries, in process with the time moved by a manual clock", () => {
  // The default schedule: with a clock the test moves, its days of waiting take no time.
  const SCHEDULE = [60, 300, 1800, 7200, 43200];
  const localDir = tempDir("cf-webhook-retries-");
  const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {}, access: () => {} };
  let plain: Receiver;
  let o: OpenedDb;
  let clock: ManualClock;
  let worker: JobWorker;
  let tenantId: string;

  beforeAll(async () => {
    plain = startReceiver(localDir, { tls: false });
    o = await openDb(localDir);
    tenantId = (await ensureTenant(sqliteSql(o.sqlite), "acme")).id;
    clock = manualClock();
    const cfg = { webhookTimeoutMs: 3000, outboundAllow: ["127.0.0.1"], webhookRetrySchedule: SCHEDULE };
    const webhookSend = webhookSendOptions({ ...cfg, webhookCaFile: null }, clock);
    worker = new JobWorker(
      sqliteSql(o.sqlite),
      silent,
      [registerJob(deliveryJob, { sql: sqliteSql(o.sqlite), cfg, webhookSend, log: silent, clock })],
      {
        concurrency: 2,
        leaseSeconds: 30,
        maxStalls: 3,
        clock,
        pollMs: 10,
      },
    );
    await worker.start();
  });
  afterAll(async () => {
    await worker.stop(1_000);
    o.sqlite.close();
    plain.stop();
    cleanup(localDir);
  });

  const hook = async (path: string, events: SubscribableEvent[]) =>
    (await saveWebhook(sqliteSql(o.sqlite), tenantId, { url: plain.url + path, events })).webhook;
  const record = (event: EmittedEvent, data: Record<string, unknown>) =>
    queueEvent(sqliteSql(o.sqlite), jobDeliveryQueue(clock), clock, { tenantId, event, data });
  const logOf = async (webhookId: string) => (await deliveryLog(sqliteSql(o.sqlite), tenantId, webhookId, 20)).data;
  /** The webhook's newest delivery once its n-th attempt is committed (logged, and the next one scheduled or the delivery ended). */
  const attempted = async (webhookId: string, n: number) =>
    (await waitFor(
      `attempt ${n}`,
      async () => (await logOf(webhookId))[0],
      (d) => (d?.attempt_count ?? 0) >= n,
      120_000,
      10,
    ))!;
  const pendingJobs = () =>
    o.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')").get()!.n;

  test("a failed delivery is retried after each delay of the schedule, with the same delivery id, until it succeeds", async () => {
    plain.reply("/flaky", 503, 500, 200);
    const w = await hook("/flaky", ["course.failed"]);
    await hook("/tick", ["course.completed"]);
    await record("course.failed", {
      job_id: "j-flaky",
      error: { code: "LLM_TIMEOUT", message: "timed out", request_id: null },
    });
    for (let n = 1; n < 3; n++) {
      const entry = await attempted(w.id, n);
      const delayMs = SCHEDULE[n - 1]! * 1000;
      expect(Date.parse(entry.next_attempt_at!)).toBe(clock.now().getTime() + delayMs);
      // A second early nothing is sent; a delivery due then shows the worker has polled at that time.
      clock.advance(delayMs - 1000);
      await record("course.completed", completed(n));
      await plain.waitFor("/tick", n);
      expect(plain.to("/flaky")).toHaveLength(n);
      clock.advance(1000);
    }
    const entry = await attempted(w.id, 3);
    expect(entry).toMatchObject({ status: "delivered", attempt_count: 3, next_attempt_at: null });
    expect(entry.attempts.map((a) => [a.attempt, a.status_code, a.ok])).toEqual([
      [1, 503, false],
      [2, 500, false],
      [3, 200, true],
    ]);
    const started = entry.attempts.map((a) => Date.parse(a.started_at));
    expect([started[1]! - started[0]!, started[2]! - started[1]!]).toEqual([SCHEDULE[0]! * 1000, SCHEDULE[1]! * 1000]);
    const got = plain.to("/flaky");
    expect(got).toHaveLength(3);
    expect(new Set(got.map((g) => g.headers["x-service-delivery"]))).toEqual(new Set([entry.id]));
    for (const g of got) expect(verifySignature(w.secret, g.raw, g.headers["x-service-signature"])).toBe(true);
    // Delivered: nothing is left to send, however late it gets.
    clock.advance(SCHEDULE.at(-1)! * 1000);
    expect(pendingJobs()).toBe(0);
  });

  test("after the first try and five failed retries the webhook turns inactive and receives nothing more", async () => {
    plain.reply("/down", 500);
    const down = await hook("/down", ["course.completed"]);
    const witness = await hook("/witness", ["course.completed"]);
    await record("course.completed", completed(2));
    for (let n = 1; n <= SCHEDULE.length; n++) {
      await attempted(down.id, n);
      clock.advance(SCHEDULE[n - 1]! * 1000);
    }
    const entry = await attempted(down.id, 6);
    expect(entry).toMatchObject({ status: "failed", attempt_count: 6, next_attempt_at: null });
    expect(entry.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(entry.attempts.every((a) => a.status_code === 500 && a.ok === false)).toBe(true);
    expect(plain.to("/down")).toHaveLength(6);
    expect((await listWebhooks(sqliteSql(o.sqlite), tenantId)).find((x) => x.id === down.id)?.active).toBe(false);
    expect(pendingJobs()).toBe(0);

    // Nothing more reaches it (the witness shows the event went out)...
    plain.reply("/down", 200);
    await record("course.completed", completed(3));
    await plain.waitFor("/witness", 2);
    expect(plain.to("/down")).toHaveLength(6);
    expect(await logOf(down.id)).toHaveLength(1);

    // ...until it is registered again: active, with a new secret that signs the next event.
    const again = await hook("/down", ["course.completed"]);
    expect(again).toMatchObject({ id: down.id, active: true });
    expect(again.secret).not.toBe(down.secret);
    await record("course.completed", completed(4));
    const [, , , , , , got] = await plain.waitFor("/down", 7);
    expect(JSON.parse(got!.raw).data).toEqual(completed(4));
    expect(verifySignature(again.secret, got!.raw, got!.headers["x-service-signature"])).toBe(true);
    expect(verifySignature(witness.secret, got!.raw, got!.headers["x-service-signature"])).toBe(false);
  });
});

describe("persistence: a SIGKILL needs a server process", () => {
  test("deliveries pending when the server is SIGKILLed are made after the restart", async () => {
    const proc = await startServer({ env: env() });
    // The next start needs no process of its own: the server in this process makes the deliveries.
    let restarted: TestApp | null = null;
    try {
      const k = await proc.createKey("acme", "test");
      rx.reply("/restart", "hang", 200);
      const r = await call(proc.url, "/v2/webhooks", {
        key: k,
        json: { url: `${rx.url}/restart`, events: ["course.completed"] },
      });
      expect(r.status).toBe(201);
      await emit(proc.dataDir, k, "course.completed", completed(7));
      const [inFlight] = await rx.waitFor("/restart", 1);
      await proc.kill();
      // One event recorded while the server is down: only the outbox has it.
      await emit(proc.dataDir, k, "course.completed", completed(8));
      restarted = await startApp({ dataDir: proc.dataDir, env: env() });
      const got = await rx.waitFor("/restart", 3);
      const byCourse = new Map<string, string[]>();
      for (const g of got) {
        const id = JSON.parse(g.raw).data.course_id as string;
        byCourse.set(id, [...(byCourse.get(id) ?? []), g.headers["x-service-delivery"]!]);
      }
      // The attempt cut off by the kill is made again with the same delivery id, so receivers can de-duplicate.
      expect(byCourse.get("course-7")).toEqual([
        inFlight!.headers["x-service-delivery"]!,
        inFlight!.headers["x-service-delivery"]!,
      ]);
      expect(byCourse.get("course-8")).toHaveLength(1);
      await delivered(restarted, [r.body.id]);
      expect(rx.to("/restart")).toHaveLength(3);
      const log = (await call(restarted, `/v2/webhooks/${r.body.id}/deliveries`, { key: k })).body.data as any[];
      expect(log.map((d) => d.status)).toEqual(["delivered", "delivered"]);
    } finally {
      if (restarted) await restarted.stop();
      else await proc.stop();
    }
  }, 300_000);
});
