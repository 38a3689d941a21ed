/**
 * Where deliveries may not go. The receiver is a real HTTPS server on 127.0.0.1; the same data
 * directory is served three times: allowed (OUTBOUND_ALLOW=127.0.0.1), guarded (no allow-list),
 * and allowed but without the receiver's CA (TLS verification).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, cleanup, errorOf, startServer, type TestServer, tempDir } from "../helpers/server.ts";
import { emit } from "./emit.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

const dir = tempDir("cf-webhooks-ssrf-");
let rx: Receiver;
let dataDir: string;
let key: string;
let hookId: string;

const serve = (env: Record<string, string>) =>
  startServer({
    dataDir,
    env: { WEBHOOK_RETRY_SCHEDULE: "1,1,1,1,1", WEBHOOK_TIMEOUT_MS: "3000", RATE_LIMIT_PER_MINUTE: "10000", ...env },
  });

beforeAll(async () => {
  rx = startReceiver(dir);
  const allowed = await startServer({ env: { NODE_EXTRA_CA_CERTS: rx.certFile, OUTBOUND_ALLOW: "127.0.0.1" } });
  dataDir = allowed.dataDir;
  key = await allowed.createKey("acme", "test");
  const r = await call(allowed.url, "/v2/webhooks", {
    key,
    json: { url: `${rx.url}/hook`, events: ["course.completed"] },
  });
  expect(r.status).toBe(201);
  hookId = r.body.id;
  const t = await call(allowed.url, `/v2/webhooks/${hookId}/test`, { key, method: "POST" });
  expect(t.body.delivered).toBe(true);
  await allowed.stop({ keepData: true });
});
afterAll(() => {
  rx.stop();
  cleanup(dataDir);
  cleanup(dir);
});

describe("without OUTBOUND_ALLOW", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await serve({ NODE_EXTRA_CA_CERTS: rx.certFile });
  });
  afterAll(() => srv.stop({ keepData: true }));

  test("loopback, link-local metadata, private and names resolving to loopback are refused at registration", async () => {
    const before = (await call(srv.url, "/v2/webhooks", { key })).body.data.length;
    for (const url of [
      `https://127.0.0.1:${rx.port}/hook2`,
      "https://169.254.169.254/latest/meta-data/",
      `https://localhost:${rx.port}/hook2`,
      `https://[::1]:${rx.port}/hook2`,
      "https://10.20.30.40/hook",
      "https://[::ffff:127.0.0.1]/hook",
    ]) {
      const r = await call(srv.url, "/v2/webhooks", { key, json: { url } });
      expect({ url, status: r.status }).toEqual({ url, status: 422 });
      expect(errorOf(r).message).toMatch(/may not reach|not allowed|private|loopback|link-local|refused/i);
    }
    expect((await call(srv.url, "/v2/webhooks", { key })).body.data.length).toBe(before);
  });

  test("the address is checked again at delivery time: a receiver registered while allowed is refused now", async () => {
    const seen = rx.to("/hook").length;
    const t = await call(srv.url, `/v2/webhooks/${hookId}/test`, { key, method: "POST" });
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ delivered: false, status_code: null });
    expect(t.body.error).toMatch(/may not reach|not allowed|private|loopback|refused/i);

    await emit(dataDir, key, "course.completed", {
      job_id: "j",
      course_id: "c",
      title: "T",
      chapters_count: 1,
      source_type: "topic",
    });
    const deadline = Date.now() + 120_000;
    let entry: any;
    while (Date.now() < deadline) {
      const log = await call(srv.url, `/v2/webhooks/${hookId}/deliveries`, { key });
      entry = log.body.data.find((d: any) => d.event === "course.completed");
      if (entry?.attempts.length >= 2) break;
      await Bun.sleep(100);
    }
    expect(entry.attempts.length).toBeGreaterThanOrEqual(2);
    for (const a of entry.attempts) expect(a).toMatchObject({ ok: false, status_code: null });
    expect(entry.attempts[0].error).toMatch(/may not reach|not allowed|private|loopback|refused/i);
    expect(rx.to("/hook").length).toBe(seen);
  });
});

describe("TLS verification", () => {
  test("a receiver whose certificate is not trusted is not delivered to", async () => {
    const srv = await serve({ OUTBOUND_ALLOW: "127.0.0.1" });
    try {
      const r = await call(srv.url, "/v2/webhooks", {
        key,
        json: { url: `${rx.url}/hook`, events: ["course.completed"] },
      });
      expect(r.status).toBe(200);
      const seen = rx.to("/hook").length;
      const t = await call(srv.url, `/v2/webhooks/${hookId}/test`, { key, method: "POST" });
      expect(t.body).toMatchObject({ delivered: false, status_code: null });
      expect(t.body.error).toMatch(/certificate|self.signed/i);
      expect(rx.to("/hook").length).toBe(seen);
    } finally {
      await srv.stop({ keepData: true });
    }
  });
});
