/**
 * Where deliveries may not go, and which receivers' certificates are trusted. The receiver is a
 * real HTTPS server on 127.0.0.1; the same data directory is served, in this process, allowed
 * (OUTBOUND_ALLOW=127.0.0.1, its CA in WEBHOOK_CA_FILE), guarded (no allow-list), and allowed but
 * trusting no CA or another one (TLS verification).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, cleanup, errorOf, tempDir } from "../helpers/server.ts";
import { emit } from "./emit.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

const dir = tempDir("cf-webhooks-ssrf-");
const otherDir = tempDir("cf-webhooks-ssrf-other-");
let rx: Receiver;
/** A receiver whose certificate is a CA of its own, not the first receiver's. */
let other: Receiver;
let dataDir: string;
let key: string;
let hookId: string;

const serve = (env: Record<string, string>) =>
  startApp({
    dataDir,
    env: { WEBHOOK_RETRY_SCHEDULE: "1,1,1,1,1", WEBHOOK_TIMEOUT_MS: "3000", RATE_LIMIT_PER_MINUTE: "10000", ...env },
  });

beforeAll(async () => {
  rx = startReceiver(dir);
  other = startReceiver(otherDir);
  const allowed = await startApp({ env: { WEBHOOK_CA_FILE: rx.certFile, OUTBOUND_ALLOW: "127.0.0.1" } });
  dataDir = allowed.dataDir;
  key = await allowed.createKey("acme", "test");
  const r = await call(allowed, "/v2/webhooks", {
    key,
    json: { url: `${rx.url}/hook`, events: ["course.completed"] },
  });
  expect(r.status).toBe(201);
  hookId = r.body.id;
  const t = await call(allowed, `/v2/webhooks/${hookId}/test`, { key, method: "POST" });
  expect(t.body.delivered).toBe(true);
  await allowed.stop({ keepData: true });
});
afterAll(() => {
  rx.stop();
  other.stop();
  cleanup(dataDir);
  cleanup(dir);
  cleanup(otherDir);
});

describe("without OUTBOUND_ALLOW", () => {
  let srv: TestApp;
  beforeAll(async () => {
    srv = await serve({ WEBHOOK_CA_FILE: rx.certFile });
  });
  afterAll(() => srv.stop({ keepData: true }));

  test("loopback, link-local metadata, private and names resolving to loopback are refused at registration", async () => {
    const before = (await call(srv, "/v2/webhooks", { key })).body.data.length;
    for (const url of [
      `https://127.0.0.1:${rx.port}/hook2`,
      "https://169.254.169.254/latest/meta-data/",
      `https://localhost:${rx.port}/hook2`,
      `https://[::1]:${rx.port}/hook2`,
      "https://10.20.30.40/hook",
      "https://[::ffff:127.0.0.1]/hook",
    ]) {
      const r = await call(srv, "/v2/webhooks", { key, json: { url } });
      expect({ url, status: r.status }).toEqual({ url, status: 422 });
      expect(errorOf(r).message).toMatch(/may not reach|not allowed|private|loopback|link-local|refused/i);
    }
    expect((await call(srv, "/v2/webhooks", { key })).body.data.length).toBe(before);
  });

  test("the address is checked again at delivery time: a receiver registered while allowed is refused now", async () => {
    const seen = rx.to("/hook").length;
    const t = await call(srv, `/v2/webhooks/${hookId}/test`, { key, method: "POST" });
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
      const log = await call(srv, `/v2/webhooks/${hookId}/deliveries`, { key });
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
  /** The test event's result and the delivery log's entry for it, with what reached the receiver. */
  async function testEvent(srv: TestApp, to: Receiver, path: string) {
    const r = await call(srv, "/v2/webhooks", { key, json: { url: `${to.url}${path}`, events: ["course.completed"] } });
    expect(r.status).toBeLessThan(300);
    const seen = to.to(path).length;
    const t = await call(srv, `/v2/webhooks/${r.body.id}/test`, { key, method: "POST" });
    const log = (await call(srv, `/v2/webhooks/${r.body.id}/deliveries`, { key })).body.data as any[];
    return { result: t.body, logged: log.find((d) => d.id === t.body.delivery_id), reached: to.to(path).length - seen };
  }

  test("a receiver whose certificate is not trusted is not delivered to", async () => {
    const srv = await serve({ OUTBOUND_ALLOW: "127.0.0.1" });
    try {
      const { result, reached } = await testEvent(srv, rx, "/hook");
      expect(result).toMatchObject({ delivered: false, status_code: null });
      expect(result.error).toMatch(/certificate|self.signed/i);
      expect(reached).toBe(0);
    } finally {
      await srv.stop({ keepData: true });
    }
  });

  test("WEBHOOK_CA_FILE: a receiver signed by that CA is delivered to, one signed by another CA is not", async () => {
    const srv = await serve({ OUTBOUND_ALLOW: "127.0.0.1", WEBHOOK_CA_FILE: other.certFile });
    try {
      const trusted = await testEvent(srv, other, "/trusted");
      expect(trusted.result).toMatchObject({ delivered: true, status_code: 200, error: null });
      expect(trusted.logged).toMatchObject({ status: "delivered" });
      expect(trusted.reached).toBe(1);

      const untrusted = await testEvent(srv, rx, "/hook");
      expect(untrusted.result).toMatchObject({ delivered: false, status_code: null });
      // FETCH_FAILED's reason, naming the receiver and what TLS refused.
      expect(untrusted.result.error).toMatch(/^could not fetch https:\/\/127\.0\.0\.1:\d+: .*(CERT|certificate)/i);
      expect(untrusted.logged).toMatchObject({ status: "failed" });
      expect(untrusted.logged.attempts[0]).toMatchObject({ ok: false, error: untrusted.result.error });
      expect(untrusted.reached).toBe(0);
    } finally {
      await srv.stop({ keepData: true });
    }
  });

  test("a WEBHOOK_CA_FILE that cannot be read, or holds no certificate, stops the start with its name", async () => {
    // Data directories of their own, under one removed with the rest: a start that fails leaves its lock.
    const start = (file: string) =>
      startApp({ dataDir: mkdtempSync(join(otherDir, "data-")), env: { WEBHOOK_CA_FILE: file } });
    const missing = join(otherDir, "missing.pem");
    await expect(start(missing)).rejects.toThrow(`WEBHOOK_CA_FILE ${missing} cannot be read`);
    const notPem = join(otherDir, "not.pem");
    await Bun.write(notPem, "not a certificate\n");
    await expect(start(notPem)).rejects.toThrow(`WEBHOOK_CA_FILE ${notPem} holds no PEM certificate`);
  });
});
