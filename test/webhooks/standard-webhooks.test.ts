/**
 * Receivers can refuse replays (#33): beside X-Service-Signature, every delivery carries the
 * Standard Webhooks headers, so a receiver using the `standardwebhooks` package verifies it with
 * the secret as registration returned it, and refuses the same delivery replayed later (its
 * timestamp too old, or its id already seen) and a tampered one.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, cleanup, tempDir } from "../helpers/server.ts";
import { emit } from "./emit.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

const dir = tempDir("cf-stdwh-");
let rx: Receiver;
let srv: TestApp;
let key: string;

beforeAll(async () => {
  rx = startReceiver(dir);
  srv = await startApp({
    env: { WEBHOOK_CA_FILE: rx.certFile, OUTBOUND_ALLOW: "127.0.0.1", RATE_LIMIT_PER_MINUTE: "10000" },
  });
  key = await srv.createKey("acme", "production");
});
afterAll(async () => {
  await srv?.stop();
  rx?.stop();
  cleanup(dir);
});

test("a delivery verifies with the standardwebhooks package; a replay or a tampered body does not", async () => {
  const reg = await call(srv, "/v2/webhooks", { key, json: { url: `${rx.url}/std` } });
  expect(reg.status).toBe(201);
  const data = { job_id: "job-1", course_id: "course-1", title: "Tides", chapters_count: 3, source_type: "topic" };
  await emit(srv.dataDir, key, "course.completed", data);
  const [got] = await rx.waitFor("/std", 1);

  const seen = new Set<string>();
  /** A receiver as its documentation writes one: verify, then refuse an id it has already handled. */
  const receive = (raw: string, headers: Record<string, string>, nowSeconds: number) => {
    const wh = new Webhook(reg.body.secret);
    const realNow = Date.now;
    Date.now = () => nowSeconds * 1000;
    try {
      const payload = wh.verify(raw, headers);
      if (seen.has(headers["webhook-id"]!)) throw new Error("replayed delivery");
      seen.add(headers["webhook-id"]!);
      return payload;
    } finally {
      Date.now = realNow;
    }
  };

  const sentAt = Number(got!.headers["webhook-timestamp"]);
  expect(got!.headers["webhook-id"]).toBeTruthy();
  expect(got!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  expect(receive(got!.raw, got!.headers, sentAt + 1)).toMatchObject({ event: "course.completed", data });
  // The same request again: refused as seen, and an hour later refused as too old.
  expect(() => receive(got!.raw, got!.headers, sentAt + 2)).toThrow("replayed delivery");
  expect(() => receive(got!.raw, got!.headers, sentAt + 3600)).toThrow("too old");
  // A body changed on the way matches no signature.
  expect(() => receive(got!.raw.replace("Tides", "Tidal"), got!.headers, sentAt + 1)).toThrow();
});
