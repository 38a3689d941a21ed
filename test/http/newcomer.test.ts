/**
 * What a newcomer to the API runs into first: a form posted to the JSON endpoint, a JSON body
 * without its Content-Type, non-ASCII learner ids, validation messages, and failed first writes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, errorOf } from "../helpers/server.ts";

let srv: TestApp;
let key: string;

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "1000" } });
  key = await srv.createKey("acme", "test");
});
afterAll(() => srv.stop());

/** A header value whose bytes on the wire are the UTF-8 of `text` (fetch sends each char ≤ U+00FF as one byte). */
const utf8Header = (text: string) => Buffer.from(text, "utf8").toString("latin1");

const me = (user: string) => call(srv, "/v2/users/me", { key, headers: { "x-external-user-id": user } });

const TEXT = "Photosynthesis turns light into chemical energy in the chloroplasts of plant cells. ".repeat(20);

describe("POST /v2/courses/generate takes JSON only", () => {
  test("a multipart body with files and URLs is 415 pointing to generate-from-files, and creates nothing", async () => {
    const form = new FormData();
    form.append("topic", "Photosynthesis");
    form.append("web_urls", '["https://example.org/page"]');
    form.append("model", "llama3.2");
    form.append("files", new Blob([TEXT]), "notes.txt");
    const r = await call(srv, "/v2/courses/generate", { key, user: "form-poster", body: form });
    expect(r.status).toBe(415);
    const e = errorOf(r);
    expect(e.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(e.message).toContain("application/json");
    expect(e.message).toContain("POST /v2/courses/generate-from-files");
    expect((await me("form-poster")).status).toBe(404);
    expect((await call(srv, "/v2/courses", { key, user: "form-poster" })).status).toBe(404);
  });

  test("a JSON body sent as text/plain or without Content-Type is 415, not a missing field", async () => {
    const json = JSON.stringify({ topic: "Photosynthesis" });
    for (const body of [json, new TextEncoder().encode(json)]) {
      const r = await call(srv, "/v2/courses/generate", { key, user: "no-type", body });
      expect(r.status).toBe(415);
      expect(errorOf(r).message).toContain("Content-Type: application/json");
    }
    expect((await me("no-type")).status).toBe(404);
  });
});

describe("JSON endpoints and validation messages", () => {
  test("a JSON body without Content-Type: application/json is 415 on every JSON endpoint, and stores nothing", async () => {
    const r = await call(srv, "/v2/users", {
      key,
      body: JSON.stringify({ external_id: "urlencoded-json" }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(r.status).toBe(415);
    const e = errorOf(r);
    expect(e.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(e.details).toEqual({ expected: "application/json", received: "application/x-www-form-urlencoded" });
    expect((await me("urlencoded-json")).status).toBe(404);
  });

  test("a bodiless POST to an endpoint whose body is optional is not a 415", async () => {
    await call(srv, "/v2/users", { key, json: { external_id: "bodiless" } });
    const r = await call(srv, `/v2/courses/${crypto.randomUUID()}/generate-notes`, {
      key,
      user: "bodiless",
      method: "POST",
    });
    expect(r.status).toBe(404);
  });

  test("every 422 names the field and the rule", async () => {
    const cases: [string, unknown, string[]][] = [
      ["/v2/courses/generate", { topic: "Photosynthesis", num_chapters: 0 }, ["num_chapters", "integer from 1 to 20"]],
      [
        "/v2/courses/generate",
        { topic: "Photosynthesis", num_chapters: "abc" },
        ["num_chapters", "integer from 1 to 20"],
      ],
      ["/v2/courses/generate", { topic: "ab" }, ["topic", "3 to 500 characters"]],
      ["/v2/courses/generate", {}, ["topic is required", "3 to 500 characters"]],
      ["/v2/users", { learning_goal: "fun" }, ["learning_goal", "one of: exams, career, curiosity, supplement"]],
    ];
    for (const [path, json, words] of cases) {
      const r = await call(srv, path, { key, user: "validated", json });
      expect(r.status).toBe(422);
      const e = errorOf(r);
      expect(e.code).toBe("VALIDATION_ERROR");
      for (const w of words) expect(e.message).toContain(w);
      expect((e.details as { field: string }[])[0]!.field).toBe(words[0]!.split(" ")[0]!);
    }
    const mode = await call(srv, "/v2/courses/generate?mode=fast", {
      key,
      user: "validated",
      json: { topic: "Photosynthesis" },
    });
    expect(errorOf(mode).message).toContain("mode must be one of: async, sync, stream");
  });
});

describe("non-ASCII learner ids", () => {
  test("an X-External-User-Id sent as UTF-8 is stored as sent", async () => {
    for (const id of ["renée", "学生-42", "Ωmega"]) {
      const w = await call(srv, "/v2/users/me", {
        method: "PATCH",
        key,
        json: {},
        headers: { "x-external-user-id": utf8Header(id) },
      });
      expect({ status: w.status, external_id: w.body.external_id }).toEqual({ status: 200, external_id: id });
      const r = await me(utf8Header(id));
      expect(r.body.user_id).toBe(w.body.user_id);
    }
  });

  test("a learner registered in a JSON body is found by the header", async () => {
    const made = await call(srv, "/v2/users", { key, json: { external_id: "josé" } });
    expect(made.status).toBe(201);
    const r = await me(utf8Header("josé"));
    expect(r.status).toBe(200);
    expect(r.body.user_id).toBe(made.body.user_id);
  });

  test("a header that is not UTF-8 is a clear 422, and control characters stay refused", async () => {
    const latin1 = await me("ren\u00e9e"); // the single byte 0xE9: Latin-1, not UTF-8
    expect(latin1.status).toBe(422);
    expect(errorOf(latin1).message).toContain("not valid UTF-8");
    expect((await me(utf8Header("a\u0085b"))).status).toBe(422);
  });
});

describe("failed first writes create no learner", () => {
  test("a 415 upload leaves the learner unknown", async () => {
    const exe = new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0, 0, 0xff, 0xff, 0, 0]);
    const form = new FormData();
    form.append("files", new Blob([exe]), "tool.exe");
    const r = await call(srv, "/v2/courses/generate-from-files", { key, user: "upload-refused", body: form });
    expect(r.status).toBe(415);
    expect((await me("upload-refused")).status).toBe(404);
  });

  test("a refused topic course leaves the learner unknown", async () => {
    // The extractive engine with no indexed documents refuses every topic.
    const r = await call(srv, "/v2/courses/generate", {
      key,
      user: "topic-refused",
      json: { topic: "Photosynthesis" },
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    errorOf(r);
    expect((await me("topic-refused")).status).toBe(404);
  });

  test("a successful first write still creates the learner", async () => {
    const form = new FormData();
    form.append("files", new Blob([TEXT]), "notes.txt");
    const r = await call(srv, "/v2/courses/generate-from-files", { key, user: "first-upload", body: form });
    expect(r.status).toBe(202);
    expect((await me("first-upload")).status).toBe(200);
  });
});
