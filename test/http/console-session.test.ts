/**
 * The web console's session: sign-in exchanges a key for an HttpOnly cookie stored as a hash; the
 * API takes the cookie only from the console's own origin and only with Origin on writes; sign-out,
 * expiry and the key's revocation end it. Also: the console is served at /app/ beside /docs.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { revokeKey } from "../../src/tenants/keys.ts";
import { sha256Hex } from "../../src/util.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, errorOf } from "../helpers/server.ts";

let srv: TestApp;
let key: string;

beforeAll(async () => {
  srv = await startApp();
  key = await srv.createKey("console-tenant", "test");
});
afterAll(() => srv?.stop());

const signIn = (body: Record<string, unknown>, headers: Record<string, string> = { origin: srv.url }) =>
  srv.fetch(`/v2/console/session`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** Signs in as `learner` and returns the cookie pair to send back. */
async function session(learner: string, apiKey = key): Promise<string> {
  const res = await signIn({ api_key: apiKey, external_user_id: learner });
  expect(res.status).toBe(201);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

/** A request as the console's own page makes it: the cookie, same-origin fetch metadata, Origin on writes. */
const asConsole = (cookie: string, method = "GET") => ({
  cookie,
  "sec-fetch-site": "same-origin",
  ...(method === "GET" ? {} : { origin: srv.url }),
});

test("sign-in sets an HttpOnly, SameSite=Strict cookie and keeps only its hash", async () => {
  const res = await signIn({ api_key: key, external_user_id: "ada" });
  expect(res.status).toBe(201);
  const body = await res.json();
  expect(body).toMatchObject({ user: { external_id: "ada" }, tenant: "console-tenant", key_env: "test" });
  expect(Date.parse(body.expires_at)).toBeGreaterThan(Date.now() + 11 * 3600_000);
  const cookie = res.headers.get("set-cookie")!;
  expect(cookie).toMatch(/^cf_console=[A-Za-z0-9_-]{40,};/);
  expect(cookie).toContain("HttpOnly");
  expect(cookie).toMatch(/SameSite=Strict/i);
  expect(cookie).toContain("Path=/");
  expect(cookie).not.toContain("Secure");
  expect(JSON.stringify(body)).not.toContain(key);

  const token = cookie.slice("cf_console=".length, cookie.indexOf(";"));
  const { sqlite } = await openDb(srv.dataDir, { migrate: false });
  try {
    const rows = sqlite.query<{ token_hash: string }, []>("SELECT token_hash FROM console_sessions").all();
    expect(rows.map((r) => r.token_hash)).toContain(sha256Hex(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  } finally {
    sqlite.close();
  }
  // The key went in a body, never into the request log.
  expect(srv.output()).not.toContain(key);
});

test("the cookie is Secure when the console is reached over HTTPS", async () => {
  const res = await signIn(
    { api_key: key, external_user_id: "ada" },
    { origin: srv.url, "x-forwarded-proto": "https" },
  );
  expect(res.status).toBe(201);
  expect(res.headers.get("set-cookie")).toContain("Secure");
});

test("sign-in names the learner by user_id as well; an unknown one is 404", async () => {
  const registered = await call(srv, "/v2/users", { key, json: { external_id: "barbara" } });
  const byId = await signIn({ api_key: key, user_id: registered.body.user_id });
  expect(byId.status).toBe(201);
  expect((await byId.json()).user).toMatchObject({ user_id: registered.body.user_id, external_id: "barbara" });
  const unknown = await call(srv, "/v2/console/session", {
    json: { api_key: key, user_id: crypto.randomUUID() },
    headers: { origin: srv.url },
  });
  expect(unknown.status).toBe(404);
  expect(errorOf(unknown).code).toBe("USER_NOT_FOUND");
});

test("sign-in refuses a wrong key, a missing learner, and any page but the console's", async () => {
  const wrong = await call(srv, "/v2/console/session", {
    json: { api_key: "sk-service-test-nope", external_user_id: "ada" },
    headers: { origin: srv.url },
  });
  expect(wrong.status).toBe(401);
  expect(errorOf(wrong).code).toBe("UNAUTHORIZED");
  const noLearner = await call(srv, "/v2/console/session", {
    json: { api_key: key },
    headers: { origin: srv.url },
  });
  expect(noLearner.status).toBe(422);
  expect(errorOf(noLearner).code).toBe("USER_REQUIRED");
  for (const headers of [
    {},
    { origin: "https://evil.example" },
    { origin: srv.url, "sec-fetch-site": "cross-site" },
  ] as Record<string, string>[]) {
    const res = await call(srv, "/v2/console/session", {
      json: { api_key: key, external_user_id: "ada" },
      headers,
    });
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe("CROSS_ORIGIN_REQUEST");
    expect(res.headers.get("set-cookie")).toBeNull();
  }
});

test("the cookie authenticates the console's requests as its own learner, whatever headers say", async () => {
  const cookie = await session("grace");
  const me = await call(srv, "/v2/users/me", {
    headers: { ...asConsole(cookie), "x-external-user-id": "someone-else" },
  });
  expect(me.status).toBe(200);
  expect(me.body.external_id).toBe("grace");
  const patched = await call(srv, "/v2/users/me", {
    method: "PATCH",
    json: { learning_goal: "career" },
    headers: asConsole(cookie, "PATCH"),
  });
  expect(patched.status).toBe(200);
  const byKey = await call(srv, "/v2/users/me", { key, user: "grace" });
  expect(byKey.body.learning_goal).toBe("career");
  const current = await call(srv, "/v2/console/session", { headers: asConsole(cookie) });
  expect(current.status).toBe(200);
  expect(current.body.user.external_id).toBe("grace");
  expect(current.headers.get("x-ratelimit-limit")).not.toBeNull();
});

test("a session acts where its key does: a test key's session sees the test environment's data, not production's", async () => {
  const production = await srv.createKey("console-tenant", "production");
  const upload = (auth: { key?: string; headers?: Record<string, string> }, name: string) => {
    const form = new FormData();
    form.append(
      "files",
      new File([`# ${name}\n\nTides rise and fall twice a day because the Moon pulls the oceans.\n`], `${name}.md`),
    );
    return call(srv, "/v2/documents/process", { ...auth, user: auth.key ? "ada" : undefined, body: form });
  };
  expect((await upload({ key: production }, "production-notes")).status).toBe(200);
  const cookie = await session("ada");
  expect((await upload({ headers: asConsole(cookie, "POST") }, "test-notes")).status).toBe(200);
  const seen = (await call(srv, "/v2/documents", { headers: asConsole(cookie) })).body.data.map((d: any) => d.filename);
  expect(seen).toEqual(["test-notes.md"]);
  const byTestKey = (await call(srv, "/v2/documents", { key, user: "ada" })).body.data.map((d: any) => d.filename);
  expect(byTestKey).toEqual(["test-notes.md"]);
});

test("a cross-site request cannot act with the cookie", async () => {
  const cookie = await session("grace");
  const write = (headers: Record<string, string>) =>
    call(srv, "/v2/users/me", {
      method: "PATCH",
      json: { learning_goal: "exams" },
      headers: { cookie, ...headers },
    });
  for (const res of [
    await write({ origin: "https://evil.example", "sec-fetch-site": "cross-site" }),
    await write({ origin: "https://evil.example" }),
    await write({ "sec-fetch-site": "same-origin" }), // a write without Origin
    await write({ origin: "null" }),
  ]) {
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe("CROSS_ORIGIN_REQUEST");
  }
  const read = await call(srv, "/v2/users/me", { headers: { cookie, "sec-fetch-site": "cross-site" } });
  expect(read.status).toBe(403);
  expect((await call(srv, "/v2/users/me", { key, user: "grace" })).body.learning_goal).toBe("career");
});

test("sign-out ends the session at once and clears the cookie", async () => {
  const cookie = await session("linus");
  expect((await call(srv, "/v2/courses", { headers: asConsole(cookie) })).status).toBe(200);
  const out = await call(srv, "/v2/console/session", { method: "DELETE", headers: asConsole(cookie, "DELETE") });
  expect(out.status).toBe(204);
  expect(out.headers.get("set-cookie")).toMatch(/^cf_console=;.*Max-Age=0/);
  const after = await call(srv, "/v2/courses", { headers: asConsole(cookie) });
  expect(after.status).toBe(401);
  expect(errorOf(after).code).toBe("UNAUTHORIZED");
});

test("revoking the key ends its sessions, and so does expiry", async () => {
  const other = await srv.createKey("console-tenant", "test");
  const cookie = await session("margaret", other);
  const expiring = await session("margaret", key);
  expect((await call(srv, "/v2/courses", { headers: asConsole(cookie) })).status).toBe(200);
  const { sqlite } = await openDb(srv.dataDir, { migrate: false });
  try {
    await revokeKey(sqliteSql(sqlite), other.slice(0, 30));
    const token = expiring.slice("cf_console=".length);
    sqlite.run("UPDATE console_sessions SET expires_at = ? WHERE token_hash = ?", [
      new Date(Date.now() - 1000).toISOString(),
      sha256Hex(token),
    ]);
  } finally {
    sqlite.close();
  }
  expect((await call(srv, "/v2/courses", { headers: asConsole(cookie) })).status).toBe(401);
  expect((await call(srv, "/v2/courses", { headers: asConsole(expiring) })).status).toBe(401);
  // A dead cookie can still be signed out of, so the browser stops sending it; another site cannot.
  const foreign = await call(srv, "/v2/console/session", {
    method: "DELETE",
    headers: { cookie: expiring, origin: "https://evil.example" },
  });
  expect(foreign.status).toBe(403);
  const out = await call(srv, "/v2/console/session", { method: "DELETE", headers: asConsole(expiring, "DELETE") });
  expect(out.status).toBe(204);
  expect(out.headers.get("set-cookie")).toMatch(/^cf_console=;.*Max-Age=0/);
});

test("behind a proxy, pages on PUBLIC_BASE_URL's origin are the console's own as well; other origins are not", async () => {
  const proxied = await startApp({ env: { PUBLIC_BASE_URL: "https://learn.example.org/courseforge/" } });
  try {
    const k = await proxied.createKey("console-tenant", "test");
    const signInFrom = (origin: string) =>
      proxied.fetch(`/v2/console/session`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ api_key: k, external_user_id: "ada" }),
      });
    expect((await signInFrom("https://other.example.org")).status).toBe(403);
    expect((await signInFrom(proxied.url)).status).toBe(201);
    const res = await signInFrom("https://learn.example.org");
    expect(res.status).toBe(201);
    const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
    const write = (origin: string) =>
      call(proxied, "/v2/users/me", {
        method: "PATCH",
        json: { learning_goal: "career" },
        headers: { cookie, "sec-fetch-site": "same-origin", origin },
      });
    expect((await write("https://learn.example.org")).status).toBe(200);
    expect((await write(proxied.url)).status).toBe(200);
    const foreign = await write("https://learn.example.org:8443");
    expect(foreign.status).toBe(403);
    expect(errorOf(foreign).code).toBe("CROSS_ORIGIN_REQUEST");
  } finally {
    await proxied.stop();
  }
});

test("a sign-in counts as a call of its key (the key's rate limit), and a session's learner has the per-learner limit", async () => {
  const limited = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "1000", USER_RATE_LIMIT_PER_MINUTE: "3" } });
  try {
    const k = await limited.createKey("console-tenant", "test");
    const signInTo = () =>
      limited.fetch(`/v2/console/session`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: limited.url },
        body: JSON.stringify({ api_key: k, external_user_id: "ada" }),
      });
    const first = await signInTo();
    expect(first.status).toBe(201);
    const cookie = first.headers.get("set-cookie")!.split(";")[0]!;
    const asIt = { cookie, "sec-fetch-site": "same-origin" };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(limited, "/v2/courses", { headers: asIt })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  } finally {
    await limited.stop();
  }
  const tight = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "2" } });
  try {
    const k = await tight.createKey("console-tenant", "test");
    const tries: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await tight.fetch(`/v2/console/session`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: tight.url },
        body: JSON.stringify({ api_key: k, external_user_id: `learner-${i}` }),
      });
      tries.push(r.status);
      if (r.status === 429) expect((await r.json()).error.code).toBe("RATE_LIMITED");
    }
    expect(tries).toEqual([201, 201, 429]);
  } finally {
    await tight.stop();
  }
});

test("the console is served at /app/ with a strict content security policy; / leads there; /docs is unchanged", async () => {
  const root = await srv.fetch(`/`, { redirect: "manual" });
  expect(root.status).toBe(302);
  expect(root.headers.get("location")).toBe("/app/");
  const bare = await srv.fetch("/app", { redirect: "manual" });
  expect(bare.status).toBe(301);
  expect(bare.headers.get("location")).toBe("/app/");
  for (const path of ["/app/", "/app/library", "/app/courses/abc/chapters/2", "/app/courses/%E0"]) {
    const page = await srv.fetch(path);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="/app/assets/main.js">');
  }
  const js = await srv.fetch(`/app/assets/main.js`);
  expect(js.headers.get("content-type")).toContain("javascript");
  const gzipped = Bun.gzipSync(new Uint8Array(await js.arrayBuffer())).length;
  expect(gzipped).toBeLessThan(150 * 1024);
  expect((await srv.fetch(`/app/assets/main.css`)).headers.get("content-type")).toContain("text/css");
  const missing = await call(srv, "/app/assets/nothing.js");
  expect(missing.status).toBe(404);
  expect(errorOf(missing).code).toBe("NOT_FOUND");
  expect((await srv.fetch(`/docs`)).status).toBe(200);
  const spec = await call(srv, "/openapi.json");
  expect(Object.keys(spec.body.paths)).toContain("/v2/console/session");
  expect(spec.body.paths["/v2/console/session"].post.security).toEqual([]);
  expect(Object.keys(spec.body.paths).filter((p) => p.startsWith("/app") || p === "/")).toEqual([]);
});
