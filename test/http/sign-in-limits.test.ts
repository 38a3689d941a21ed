/**
 * Sign-in limits that cannot lock others out (#32): failed console sign-ins are limited per client
 * address and per key prefix tried; a right key always signs in, whatever others failed from the
 * same address. Behind a trusted proxy (TRUSTED_PROXIES) the client's own address is read from
 * X-Forwarded-For / Forwarded, and never from a client that is not a trusted proxy. The app listens
 * on a socket: a client's address is the socket's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { errorOf } from "../helpers/server.ts";

const LIMIT = 5;

const signIn = (srv: TestApp, apiKey: string, headers: Record<string, string> = {}) =>
  fetch(`${srv.url}/v2/console/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: srv.url, ...headers },
    body: JSON.stringify({ api_key: apiKey, external_user_id: "ada" }),
  });

/** A well-formed key that no tenant holds, each with its own prefix unless `prefix` is given. */
const forged = (i: number, prefix = `${i}`.padStart(8, "x")) => `sk-service-test-${prefix}${"A".repeat(32)}`;

async function statuses(srv: TestApp, keys: string[], headers: Record<string, string> = {}): Promise<number[]> {
  const out: number[] = [];
  for (const k of keys) {
    const res = await signIn(srv, k, headers);
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

describe("without trusted proxies", () => {
  let srv: TestApp;
  let key: string;
  beforeAll(async () => {
    srv = await startApp({
      env: { SIGN_IN_FAILURES_PER_MINUTE: String(LIMIT), RATE_LIMIT_PER_MINUTE: "5" },
      listen: true,
    });
    key = await srv.createKey("acme", "test");
  });
  afterAll(() => srv?.stop());

  test("past the limit an address's failures answer 429, and the right key from it still signs in", async () => {
    const keys = Array.from({ length: LIMIT + 5 }, (_, i) => forged(i));
    const got = await statuses(srv, keys);
    expect(got.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(got.slice(LIMIT)).toEqual(Array(5).fill(429));
    const refused = await signIn(srv, forged(99));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(errorOf({ body: await refused.json(), headers: refused.headers }).code).toBe("RATE_LIMITED");
    for (let i = 0; i < 3; i++) expect((await signIn(srv, key)).status).toBe(201);
  });

  test("X-Forwarded-For from a client that is no trusted proxy changes nothing", async () => {
    const res = await signIn(srv, forged(7), { "x-forwarded-for": "203.0.113.9" });
    expect(res.status).toBe(429);
  });
});

describe("behind a trusted proxy", () => {
  let srv: TestApp;
  let key: string;
  beforeAll(async () => {
    srv = await startApp({
      env: { SIGN_IN_FAILURES_PER_MINUTE: String(LIMIT), TRUSTED_PROXIES: "127.0.0.1, ::1, ::ffff:127.0.0.1" },
      listen: true,
    });
    key = await srv.createKey("acme", "test");
  });
  afterAll(() => srv?.stop());

  test("each client behind the proxy has its own count", async () => {
    const mallory = { "x-forwarded-for": "203.0.113.66" };
    const got = await statuses(
      srv,
      Array.from({ length: LIMIT + 2 }, (_, i) => forged(i)),
      mallory,
    );
    expect(got.slice(-2)).toEqual([429, 429]);
    // Another user behind the same proxy, named by RFC 7239 Forwarded: a failure is a plain 401.
    expect((await statuses(srv, [forged(50)], { forwarded: 'for="198.51.100.7:4711";proto=https' }))[0]).toBe(401);
    // A forged hop before the proxy's own entry does not move mallory out of her bucket.
    expect((await statuses(srv, [forged(51)], { "x-forwarded-for": "10.9.9.9, 203.0.113.66" }))[0]).toBe(429);
    expect((await signIn(srv, key, mallory)).status).toBe(201);
  });

  test("failures against one key prefix are limited from any address", async () => {
    const got: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      got.push(...(await statuses(srv, [forged(i, "samepfx1")], { "x-forwarded-for": `192.0.2.${i + 1}` })));
    }
    expect(got.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(got.slice(LIMIT)).toEqual([429, 429]);
  });
});
