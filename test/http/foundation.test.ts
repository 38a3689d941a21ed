import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { insertCourse } from "../helpers/fixtures.ts";
import { BUN, call, cleanup, errorOf, ROOT } from "../helpers/server.ts";

let srv: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "1000" } });
  key = await srv.createKey("acme", "test");
  otherKey = await srv.createKey("globex", "production");
});
afterAll(() => srv.stop());

describe("health and documents", () => {
  test("GET /health and /v2/health answer without a key", async () => {
    for (const path of ["/health", "/v2/health"]) {
      const r = await call(srv, path);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ status: "ok" });
      expect(r.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  test("OpenAPI document lists the routes and the page works offline", async () => {
    const spec = await call(srv, "/openapi.json");
    expect(spec.status).toBe(200);
    expect(spec.body.paths["/v2/courses"].get).toBeDefined();
    expect(spec.body.paths["/v2/courses/{course_id}"].get).toBeDefined();
    expect(spec.body.components.securitySchemes.ApiKey.name).toBe("X-API-Key");
    const body = spec.body.paths["/v2/users"].post.requestBody.content["application/json"].schema;
    expect(body.properties.learning_goal).toBeDefined();
    expect(Object.keys(spec.body.paths)).not.toContain("/docs/scalar.js");
    const page = await srv.fetch(`/docs`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("/docs/scalar.js");
    expect(html).not.toContain("cdn.jsdelivr");
    const script = await srv.fetch(`/docs/scalar.js`);
    expect(script.status).toBe(200);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});

describe("authentication", () => {
  test("missing, malformed and unknown keys are 401 with the error body", async () => {
    for (const k of [null, "nope", `sk-service-test-${"x".repeat(40)}`, "sk-service-production-abc"]) {
      const r = await call(srv, "/v2/courses", { key: k, user: "u1" });
      expect(r.status).toBe(401);
      expect(errorOf(r).code).toBe("UNAUTHORIZED");
    }
  });

  test("a key of the wrong environment prefix is refused", async () => {
    const forged = key.replace("sk-service-test-", "sk-service-production-");
    expect((await call(srv, "/v2/users", { key: forged, json: {} })).status).toBe(401);
  });

  test("a revoked key stops working at once", async () => {
    const k = await srv.createKey("acme", "test");
    expect((await call(srv, "/v2/users", { key: k, json: {} })).status).toBe(201);
    const proc = Bun.spawnSync([BUN, "src/main.ts", "keys", "revoke", k.slice(0, 30)], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: srv.dataDir },
    });
    expect(proc.exitCode).toBe(0);
    const r = await call(srv, "/v2/users", { key: k, json: {} });
    expect(r.status).toBe(401);
  });
});

describe("learners", () => {
  test("reads for an unknown external user are 404 and create nothing", async () => {
    const r = await call(srv, "/v2/courses", { key, user: "never-seen" });
    expect(r.status).toBe(404);
    expect(errorOf(r).code).toBe("USER_NOT_FOUND");
    expect((await call(srv, "/v2/users/me", { key, user: "never-seen" })).status).toBe(404);
  });

  test("a per-user endpoint without a user header is 422", async () => {
    const r = await call(srv, "/v2/courses", { key });
    expect(r.status).toBe(422);
    expect(errorOf(r).code).toBe("USER_REQUIRED");
  });

  test("the first write creates the learner (pattern A), and the profile is saved", async () => {
    const w = await call(srv, "/v2/users/me", {
      method: "PATCH",
      key,
      user: "ext-42",
      json: { learning_goal: "career" },
    });
    expect(w.status).toBe(200);
    expect(w.body.external_id).toBe("ext-42");
    expect(w.body.learning_goal).toBe("career");
    const r = await call(srv, "/v2/users/me", { key, user: "ext-42" });
    expect(r.body.user_id).toBe(w.body.user_id);
    expect(r.body.learning_goal).toBe("career");
  });

  test("POST /v2/users pre-registers (pattern B) and X-User-Id resolves it", async () => {
    const made = await call(srv, "/v2/users", {
      key,
      json: { external_id: "pre-1", email: "a@b.c", learning_goal: "exams" },
    });
    expect(made.status).toBe(201);
    expect(made.body.user_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.body.learning_goal).toBe("exams");
    const again = await call(srv, "/users", { key, json: { external_id: "pre-1" } });
    expect(again.status).toBe(200);
    expect(again.body.user_id).toBe(made.body.user_id);
    const me = await call(srv, "/v2/users/me", { key, userId: made.body.user_id });
    expect(me.body.external_id).toBe("pre-1");
    const unknown = await call(srv, "/v2/users/me", { key, userId: crypto.randomUUID() });
    expect(unknown.status).toBe(404);
    const garbage = await call(srv, "/v2/users/me", { key, userId: "../../etc/passwd" });
    expect(garbage.status).toBe(404);
  });

  test("learners are tenant-scoped: another tenant cannot use a user id", async () => {
    const made = await call(srv, "/v2/users", { key, json: { external_id: "tenant-a-user" } });
    const r = await call(srv, "/v2/users/me", { key: otherKey, userId: made.body.user_id });
    expect(r.status).toBe(404);
  });

  test("invalid learning_goal is 422 with details", async () => {
    const r = await call(srv, "/v2/users", { key, json: { learning_goal: "fun" } });
    expect(r.status).toBe(422);
    const e = errorOf(r);
    expect(e.code).toBe("VALIDATION_ERROR");
    expect(Array.isArray(e.details)).toBe(true);
  });
});

describe("course reads", () => {
  test("pagination walks every course newest first without repeats", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(
        await insertCourse(
          srv.dataDir,
          { apiKey: key, externalUserId: "pager" },
          {
            title: `Course ${i}`,
            createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 3)).toISOString(),
          },
        ),
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `/v2/courses?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const r = await call(srv, q, { key, user: "pager" });
      expect(r.status).toBe(200);
      expect(r.body.pagination.limit).toBe(3);
      for (const c of r.body.data) {
        expect(Object.keys(c).sort()).toEqual([
          "chapters",
          "created_at",
          "id",
          "slug",
          "source_type",
          "status",
          "title",
          "topic",
        ]);
        expect(c.chapters).toEqual([
          { order_index: 0, title: "Chapter 1" },
          { order_index: 1, title: "Chapter 2" },
        ]);
        seen.push(c.id);
      }
      cursor = r.body.pagination.next_cursor;
      expect(r.body.pagination.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(7);
    expect(seen.sort()).toEqual([...ids].sort());
    const first = await call(srv, "/v2/courses?limit=100", { key, user: "pager" });
    const times = first.body.data.map((c: { created_at: string }) => c.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  test("limit and cursor are validated", async () => {
    await insertCourse(srv.dataDir, { apiKey: key, externalUserId: "v" });
    for (const q of ["limit=0", "limit=101", "limit=abc", "cursor=garbage"]) {
      const r = await call(srv, `/v2/courses?${q}`, { key, user: "v" });
      expect(r.status).toBe(422);
      errorOf(r);
    }
    const ok = await call(srv, "/v2/courses", { key, user: "v" });
    expect(ok.body.pagination.limit).toBe(20);
  });

  test("a course reads in full for its owner, 403 for another learner, 404 across tenants", async () => {
    const id = await insertCourse(srv.dataDir, { apiKey: key, externalUserId: "owner" }, { title: "Owned" });
    const r = await call(srv, `/v2/courses/${id}`, { key, user: "owner" });
    expect(r.status).toBe(200);
    expect(r.body.title).toBe("Owned");
    expect(r.body.chapters).toHaveLength(2);
    const ch = r.body.chapters[0];
    expect(ch.content).toContain("# Chapter 1");
    expect(ch.key_concepts).toEqual(["concept 0"]);
    expect(ch.quiz.questions[0]).toMatchObject({ type: "mcq", choices: ["a", "b", "c", "d"], answer: 1 });
    expect(ch.sources[0]).toMatchObject({ filename: "doc.pdf", page: 3 });

    await call(srv, "/v2/users", { key, json: { external_id: "intruder" } });
    const other = await call(srv, `/v2/courses/${id}`, { key, user: "intruder" });
    expect(other.status).toBe(403);
    expect(errorOf(other).code).toBe("FORBIDDEN");

    await call(srv, "/v2/users", { key: otherKey, json: { external_id: "owner" } });
    const cross = await call(srv, `/v2/courses/${id}`, { key: otherKey, user: "owner" });
    expect(cross.status).toBe(404);
    const missing = await call(srv, `/v2/courses/${crypto.randomUUID()}`, { key, user: "owner" });
    expect(missing.status).toBe(404);
  });

  test("a generating course shows only finished chapters", async () => {
    const id = await insertCourse(
      srv.dataDir,
      { apiKey: key, externalUserId: "gen" },
      { status: "generating", chapters: 0 },
    );
    const r = await call(srv, `/v2/courses/${id}`, { key, user: "gen" });
    expect(r.body.status).toBe("generating");
    expect(r.body.chapters).toEqual([]);
  });
});

describe("errors", () => {
  test("unknown routes are 404 in the error shape", async () => {
    const r = await call(srv, "/v2/nothing-here", { key });
    expect(r.status).toBe(404);
    expect(errorOf(r).code).toBe("NOT_FOUND");
  });

  test("malformed JSON is 422, not 400 or 500", async () => {
    const r = await call(srv, "/v2/users", {
      key,
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(422);
    errorOf(r);
  });
});

describe("rate limits", () => {
  test("per-tenant limit with headers, then 429 with Retry-After", async () => {
    const limited = await srv.createKey("tiny", "production", 5);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | null = null;
    for (let i = 0; i < 7; i++) {
      last = await call(srv, "/v2/users", { key: limited, json: {} });
      statuses.push(last.status);
      if (last.status !== 429) {
        expect(last.headers.get("x-ratelimit-limit")).toBe("5");
        expect(last.headers.get("x-ratelimit-remaining")).toBe(String(4 - i));
        expect(Number(last.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
      }
    }
    expect(statuses.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const r = await call(srv, "/v2/users", { key: limited, json: {} });
    expect(r.status).toBe(429);
    expect(errorOf(r).code).toBe("RATE_LIMITED");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
    // Other tenants are unaffected.
    expect((await call(srv, "/v2/users", { key, json: {} })).status).toBe(201);
  });
});

describe("hostile input", () => {
  const post = (body: BodyInit) =>
    call(srv, "/v2/users", { key, body, headers: { "content-type": "application/json" } });

  test("deep nesting, non-objects, invalid UTF-8 and oversized JSON are clear 4xx and store nothing", async () => {
    const before = (await call(srv, "/v2/users", { key, json: { external_id: "count-probe" } })).status;
    expect(before).toBe(201);
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const cases: [BodyInit, number, string][] = [
      [deep, 422, "INVALID_BODY"],
      ["[1,2]", 422, "INVALID_BODY"],
      ['"a string"', 422, "INVALID_BODY"],
      [
        new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        422,
        "INVALID_BODY",
      ],
      [JSON.stringify({ name: "a".repeat(2 * 1024 * 1024) }), 413, "PAYLOAD_TOO_LARGE"],
    ];
    for (const [body, status, code] of cases) {
      const r = await post(body);
      expect({ status: r.status, code: errorOf(r).code }).toEqual({ status, code });
    }
  });

  test("control characters in user ids are refused, not echoed", async () => {
    const r = await srv.fetch(`/v2/users/me`, { headers: { "x-api-key": key, "x-external-user-id": "a\tb" } });
    expect(r.status).toBe(422);
  });

  test("path traversal in media URLs never reaches the file system", async () => {
    for (const path of [
      `/media/..%2F..%2Fcourseforge.db?exp=9999999999&sig=${"0".repeat(64)}`,
      "/media/2026/01/x.txt?exp=1&sig=1",
    ]) {
      const r = await call(srv, path);
      expect([403, 404]).toContain(r.status);
      errorOf(r);
    }
  });

  test("a second server on the same port fails instead of sharing it", async () => {
    const listening = await startApp({ listen: true });
    const port = new URL(listening.url).port;
    const p = Bun.spawnSync([BUN, "src/main.ts", "serve", "--no-bootstrap"], {
      cwd: ROOT,
      env: { ...process.env, PORT: port, DATA_DIR: `${listening.dataDir}-second` },
    });
    cleanup(`${listening.dataDir}-second`);
    await listening.stop();
    expect(p.exitCode).toBe(2);
    expect(p.stderr.toString()).toContain("another server already listens there");
  });
});
