/** queueEvent: one delivery row and one queued job per matching webhook, inside the caller's transaction. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemClock } from "../../src/clock.ts";
import { type OpenedDb, openDb } from "../../src/db/index.ts";
import { sql, sqliteSql } from "../../src/db/sql.ts";
import { ensureTenant } from "../../src/tenants/keys.ts";
import { jobDeliveryQueue } from "../../src/webhooks/delivery-queue.ts";
import { DELIVERY_JOB } from "../../src/webhooks/events.ts";
import { queueEvent } from "../../src/webhooks/outbox.ts";
import { saveWebhook } from "../../src/webhooks/registration.ts";
import { signBody } from "../../src/webhooks/signing.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const dir = tempDir("cf-outbox-");
const queue = jobDeliveryQueue(systemClock);
let o: OpenedDb;
let acme: string;
let globex: string;

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event: string;
  body: string;
  status: string;
  job_id: string;
}

const deliveries = () => o.sqlite.query<DeliveryRow, []>("SELECT * FROM webhook_deliveries ORDER BY rowid").all();
const deliveryJobs = () =>
  o.sqlite
    .query<{ id: string; payload: string; status: string }, [string]>(
      "SELECT id, payload, status FROM jobs WHERE type = ?",
    )
    .all(DELIVERY_JOB.type);

beforeAll(async () => {
  o = await openDb(dir);
  acme = (await ensureTenant(sqliteSql(o.sqlite), "acme")).id;
  globex = (await ensureTenant(sqliteSql(o.sqlite), "globex")).id;
});
afterAll(() => {
  o.sqlite.close();
  cleanup(dir);
});

describe("queueEvent", () => {
  test("writes one delivery and one job per active subscribed webhook of the tenant only", async () => {
    const a1 = (
      await saveWebhook(sqliteSql(o.sqlite), acme, {
        url: "https://a.example/one",
        events: ["course.completed", "course.failed"],
      })
    ).webhook;
    const a2 = (
      await saveWebhook(sqliteSql(o.sqlite), acme, { url: "https://a.example/two", events: ["course.completed"] })
    ).webhook;
    const aFailOnly = (
      await saveWebhook(sqliteSql(o.sqlite), acme, {
        url: "https://a.example/three",
        events: ["course.failed"],
      })
    ).webhook;
    const inactive = (
      await saveWebhook(sqliteSql(o.sqlite), acme, {
        url: "https://a.example/off",
        events: ["course.completed"],
      })
    ).webhook;
    o.sqlite.run("UPDATE webhooks SET active = 0 WHERE id = ?", [inactive.id]);
    await saveWebhook(sqliteSql(o.sqlite), globex, { url: "https://g.example/hook", events: ["course.completed"] });

    const data = { job_id: "j1", course_id: "c1", title: "Tides", chapters_count: 3, source_type: "topic" };
    await sqliteSql(o.sqlite).transaction(async (tx) => {
      await tx.run(sql`UPDATE tenants SET name = name WHERE id = ${acme}`);
      await queueEvent(tx, queue, systemClock, { tenantId: acme, event: "course.completed", data });
    });

    const rows = deliveries();
    expect(rows.map((r) => r.webhook_id).sort()).toEqual([a1.id, a2.id].sort());
    expect(rows.map((r) => r.webhook_id)).not.toContain(aFailOnly.id);
    for (const r of rows) {
      expect(r.status).toBe("pending");
      expect(r.event).toBe("course.completed");
      expect(JSON.parse(r.body)).toEqual({ event: "course.completed", data });
    }
    const jobs = deliveryJobs();
    expect(jobs).toHaveLength(2);
    expect(jobs.map((j) => JSON.parse(j.payload).delivery_id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(rows.map((r) => r.job_id).sort()).toEqual(jobs.map((j) => j.id).sort());
    expect(jobs.every((j) => j.status === "queued")).toBe(true);
  });

  test("a rolled-back state change leaves no delivery and no job behind", async () => {
    const before = { d: deliveries().length, j: deliveryJobs().length };
    await expect(
      sqliteSql(o.sqlite).transaction(async (tx) => {
        await queueEvent(tx, queue, systemClock, {
          tenantId: acme,
          event: "course.failed",
          data: { job_id: "j2", error: { code: "INTERNAL" } },
        });
        throw new Error("course update failed");
      }),
    ).rejects.toThrow("course update failed");
    expect(deliveries().length).toBe(before.d);
    expect(deliveryJobs().length).toBe(before.j);
  });

  test("an event nobody subscribed to writes nothing", async () => {
    const before = deliveries().length;
    await queueEvent(sqliteSql(o.sqlite), queue, systemClock, { tenantId: globex, event: "course.failed", data: {} });
    await queueEvent(sqliteSql(o.sqlite), queue, systemClock, { tenantId: acme, event: "test", data: {} });
    expect(deliveries().length).toBe(before);
  });

  test("re-registering a URL re-activates it with new events and a new secret", async () => {
    const first = await saveWebhook(sqliteSql(o.sqlite), acme, {
      url: "https://a.example/re",
      events: ["course.failed"],
    });
    o.sqlite.run("UPDATE webhooks SET active = 0 WHERE id = ?", [first.webhook.id]);
    const again = await saveWebhook(sqliteSql(o.sqlite), acme, {
      url: "https://a.example/re",
      events: ["course.completed", "course.completed"],
    });
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.webhook.id).toBe(first.webhook.id);
    expect(again.webhook.active).toBe(true);
    expect(again.webhook.events).toEqual(["course.completed"]);
    expect(again.webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(again.webhook.secret).not.toBe(first.webhook.secret);
  });

  test("the signature is the hex HMAC-SHA256 of the raw body keyed with the whole secret", async () => {
    const body = '{"event":"test","data":{"message":"hi"}}';
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode("whsec_abc"),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = Buffer.from(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body))).toString("hex");
    expect(signBody("whsec_abc", body)).toBe(mac);
  });
});
