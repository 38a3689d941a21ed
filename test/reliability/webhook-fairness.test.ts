/**
 * Webhooks under a noisy tenant (#16 item 10): registrations are capped per tenant, and deliveries
 * are scheduled per tenant, so a tenant whose receivers hang cannot hold every delivery slot and
 * delay everyone else's events until its attempts time out.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { DELIVERIES_PER_TENANT } from "../../src/webhooks/delivery-job.ts";
import { MAX_WEBHOOKS_PER_TENANT } from "../../src/webhooks/registration.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, cleanup, errorOf, tempDir } from "../helpers/server.ts";
import { emit } from "../webhooks/emit.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { waitUntil, withDb } from "./harness.ts";

const dir = tempDir("cf-fair-");
let rx: Receiver;
let srv: TestApp;
let noisy: string;
let quiet: string;

beforeAll(async () => {
  rx = startReceiver(dir);
  srv = await startApp({
    env: {
      WEBHOOK_CA_FILE: rx.certFile,
      OUTBOUND_ALLOW: "127.0.0.1",
      // Long enough that the noisy tenant's attempts are all still hanging when the quiet tenant's event is sent.
      WEBHOOK_TIMEOUT_MS: "60000",
      RATE_LIMIT_PER_MINUTE: "10000",
      SHUTDOWN_GRACE_MS: "500",
    },
  });
  noisy = await srv.createKey("noisy", "production");
  quiet = await srv.createKey("quiet", "production");
});
afterAll(async () => {
  await srv.stop();
  rx.stop();
  cleanup(dir);
});

const register = (key: string, path: string) =>
  call(srv, "/v2/webhooks", { key, json: { url: `${rx.url}${path}`, events: ["course.completed"] } });
const completed = { job_id: "job-1", course_id: "course-1", title: "Tides", chapters_count: 3, source_type: "topic" };

test(`a tenant may register ${MAX_WEBHOOKS_PER_TENANT} webhooks; one more is 422 WEBHOOK_LIMIT, re-registering one is still fine`, async () => {
  for (let i = 0; i < MAX_WEBHOOKS_PER_TENANT; i++) {
    rx.reply(`/hang-${i}`, "hang");
    expect((await register(noisy, `/hang-${i}`)).status).toBe(201);
  }
  const over = await register(noisy, "/one-too-many");
  expect(over.status).toBe(422);
  expect(errorOf(over).code).toBe("WEBHOOK_LIMIT");
  expect((await register(noisy, "/hang-0")).status).toBe(200);
  expect((await call(srv, "/v2/webhooks", { key: noisy })).body.data).toHaveLength(MAX_WEBHOOKS_PER_TENANT);
  // Another tenant is not affected by the first one's count.
  expect((await register(quiet, "/quiet")).status).toBe(201);
});

test("another tenant's delivery goes out while every receiver of a noisy tenant hangs", async () => {
  await emit(srv.dataDir, noisy, "course.completed", completed);
  // The noisy tenant's deliveries start and hang: it holds its share of the slots, not all of them.
  const hanging = () => rx.received.filter((r) => r.path.startsWith("/hang-")).length;
  await waitUntil("the noisy tenant's deliveries to start", hanging, (n) => n >= DELIVERIES_PER_TENANT, 120_000, 25);

  await emit(srv.dataDir, quiet, "course.completed", completed);
  const [delivery] = await rx.waitFor("/quiet", 1, 120_000);
  expect(JSON.parse(delivery!.raw)).toEqual({ event: "course.completed", data: completed });

  // It went out while the noisy tenant's attempts were still in flight: none of them has ended.
  const ended = withDb(
    srv.dataDir,
    (db) =>
      db
        .query<{ n: number }, []>(
          "SELECT count(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhooks w ON w.id = d.webhook_id WHERE w.url LIKE '%/hang-%'",
        )
        .get()!,
  );
  expect(ended.n).toBe(0);
  expect(hanging()).toBe(DELIVERIES_PER_TENANT);
}, 300_000);
