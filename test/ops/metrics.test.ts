import { afterAll, beforeAll, expect, test } from "bun:test";
import { waitFor } from "../courses/helpers.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, errorOf, startServer } from "../helpers/server.ts";

let srv: TestApp;
beforeAll(async () => {
  srv = await startApp({ env: { METRICS_TOKEN: "metrics-secret-token" } });
});
afterAll(() => srv.stop());

test("GET /metrics needs its own token and reports requests by route pattern", async () => {
  const key = await srv.createKey("metrics-co");
  await call(srv, "/v2/users", { key, json: { external_id: "m1" } });
  await call(srv, `/v2/courses/${crypto.randomUUID()}`, { key, user: "m1" });
  // Refused before routing (no key): labelled with the route its path names, not "unmatched".
  await call(srv, `/v2/courses/${crypto.randomUUID()}/flashcards/due`, { user: "m1" });
  await call(srv, `/v2/no/such/${crypto.randomUUID()}`, { key });

  const none = await call(srv, "/metrics");
  expect(none.status).toBe(401);
  errorOf(none);
  expect((await call(srv, "/metrics", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
  expect((await call(srv, "/metrics", { key })).status).toBe(401);

  const res = await srv.fetch("/metrics", { headers: { authorization: "Bearer metrics-secret-token" } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  const text = await res.text();
  expect(text).toMatch(/courseforge_http_requests_total\{route="\/v2\/users",method="POST",status="201"\} 1/);
  expect(text).toMatch(
    /courseforge_http_requests_total\{route="\/v2\/courses\/:course_id",method="GET",status="404"\} 1/,
  );
  expect(text).toMatch(
    /courseforge_http_requests_total\{route="\/v2\/courses\/:course_id\/flashcards\/due",method="GET",status="401"\} 1/,
  );
  expect(text).toMatch(/courseforge_http_requests_total\{route="unmatched",method="GET",status="404"\} 1/);
  expect(text).toContain("courseforge_http_request_duration_seconds_bucket");
  expect(text).toMatch(/courseforge_jobs\{status="queued"\} \d+/);
  // Raw ids never become labels.
  expect(text).not.toMatch(/route="\/v2\/courses\/[0-9a-f]{8}-/);
});

test("metrics are off without METRICS_TOKEN", async () => {
  const plain = await startApp();
  try {
    expect((await call(plain, "/metrics")).status).toBe(404);
  } finally {
    await plain.stop();
  }
});

test("health shows engine details only to a caller with a valid key", async () => {
  const anon = await call(srv, "/v2/health");
  expect(anon.body).toEqual({ status: "ok" });
  const key = await srv.createKey("health-co");
  const wrong = await call(srv, "/v2/health", { key: `${key}x` });
  expect(wrong.status).toBe(401);
  expect(wrong.body.error.code).toBe("UNAUTHORIZED");
  const withKey = await call(srv, "/v2/health", { key });
  expect(withKey.body.status).toBe("ok");
  expect(withKey.body.details.llm.engine).toBe("extractive");
  expect(withKey.body.details.version).toMatch(/^\d+\.\d+\.\d+/);
});

test("request logs are JSON lines with request id, tenant, route, status and duration, and no key", async () => {
  const key = await srv.createKey("log-co");
  const r = await call(srv, "/v2/users", { key, json: { external_id: "logged" } });
  // Access lines are written in batches, however long a loaded machine takes.
  const logged = () =>
    srv
      .output()
      .split("\n")
      .filter((l) => l.includes(r.headers.get("x-request-id")!));
  const lines = await waitFor(
    "the request's log line",
    async () => logged(),
    (found) => found.length > 0,
    60_000,
    20,
  );
  expect(lines).toHaveLength(1);
  const entry = JSON.parse(lines[0]!);
  expect(entry).toMatchObject({ msg: "request", route: "/v2/users", status: 201, method: "POST" });
  expect(typeof entry.tenant_id).toBe("string");
  expect(typeof entry.duration_ms).toBe("number");
  expect(srv.output()).not.toContain(key);
});

// A process of its own: what a signal does.
test("SIGTERM stops the server cleanly, its last requests' access lines written", async () => {
  const s = await startServer();
  const r = await call(s.url, "/health");
  // A second request, so that the first one's access line has been made (after its response).
  await call(s.url, "/health");
  s.proc.kill("SIGTERM");
  expect(await s.proc.exited).toBe(0);
  expect(s.output()).toContain(`"request_id":"${r.headers.get("x-request-id")}"`);
  await s.stop();
});
