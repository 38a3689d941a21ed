/**
 * Red-team findings on what a caller can reach: an uploaded HTML page served as a live page on the
 * API's origin (#16 item 11), IPv6 spellings of internal IPv4 addresses passing the SSRF guard, and
 * a test key reading and deleting the same tenant's production data (item 13).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { systemClock } from "../../src/clock.ts";
import { loadOrCreateSecret } from "../../src/media/secret.ts";
import { createMediaUrls } from "../../src/media/signed-url.ts";
import { createSigner } from "../../src/media/signer.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, errorOf } from "../helpers/server.ts";
import { withDb } from "./harness.ts";

let srv: TestApp;
let production: string;
let testKey: string;

const HTML =
  "<!doctype html><html><head><title>Notes</title></head><body><h1>Tides</h1><p>Tides follow the Moon.</p>" +
  "<script>fetch('/v2/courses', {headers: {'x-api-key': localStorage.key}})</script></body></html>";

function upload(
  path: string,
  key: string,
  name: string,
  type: string,
  text: string,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  form.append("files", new Blob([text], { type }), name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return srv
    .fetch(`${path}`, {
      method: "POST",
      headers: { "x-api-key": key, "x-external-user-id": "learner" },
      body: form,
    })
    .then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}

const MOON =
  "# The Moon\n\nThe Moon is Earth's only natural satellite. It orbits Earth every 27.3 days and always shows the same face.\n\n" +
  "## Phases\n\nThe phases of the Moon follow from the changing angle between the Sun, Earth and the Moon over a month.\n\n" +
  "## Tides\n\nThe Moon's gravity raises two tidal bulges in the oceans, so most coasts see two high tides a day.\n";

beforeAll(async () => {
  srv = await startApp();
  production = await srv.createKey("acme", "production");
  testKey = await srv.createKey("acme", "test");
});

afterAll(() => srv?.stop());

describe("stored sources on /media", () => {
  test("an uploaded HTML page is an attachment under a CSP that allows nothing, never a live page", async () => {
    const extracted = await upload("/v2/documents/extract", production, "notes.html", "text/html", HTML);
    expect(extracted.status).toBe(200);
    const link = extracted.body.documents[0].source_url as string;
    expect(link).toContain("/media/");
    const res = await srv.fetch(link);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(HTML);
    expect(res.headers.get("content-disposition")).toStartWith("attachment");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    // A range request (how players and download managers fetch) carries the same protection.
    const part = await srv.fetch(link, { headers: { range: "bytes=0-14" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-disposition")).toStartWith("attachment");
    expect(part.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
  });

  test("podcast audio plays inline, still never sniffed", async () => {
    // An episode's MP3 as the podcast job stores it, linked as the API links it.
    const mp3 = new Uint8Array([0xff, 0xfb, 0x90, 0x64, ...new Uint8Array(413)]);
    const key = `2026/11/${crypto.randomUUID()}.mp3`;
    mkdirSync(join(srv.dataDir, "blobs", "2026", "11"), { recursive: true });
    writeFileSync(join(srv.dataDir, "blobs", key), mp3);
    const media = createMediaUrls(createSigner(loadOrCreateSecret(srv.dataDir, "media-signing.key")), systemClock);
    const res = await srv.fetch(media.url({ baseUrl: srv.url, mediaUrlTtlSeconds: 60 }, key));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    expect(res.headers.get("content-disposition")).toStartWith("inline");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("SSRF: IPv4 addresses written as IPv6", () => {
  let hits = 0;
  let internal: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    internal = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => {
        hits++;
        return new Response("<html><body><p>internal admin page</p></body></html>", {
          headers: { "content-type": "text/html" },
        });
      },
    });
  });
  afterAll(() => internal.stop(true));

  test("web_urls with ::a.b.c.d and other IPv4-embedding forms are refused before any connection", async () => {
    const port = internal.port;
    const urls = [
      `http://[::127.0.0.1]:${port}/`,
      `http://[::7f00:1]:${port}/`,
      `http://[::169.254.169.254]:${port}/latest/meta-data/`,
      `http://[::10.0.0.1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:0:127.0.0.1]:${port}/`,
      `http://[64:ff9b::127.0.0.1]:${port}/`,
      `http://[2002:7f00:1::]:${port}/`,
    ];
    const form = new FormData();
    form.append("web_urls", JSON.stringify(urls));
    const res = await srv.fetch(`/v2/documents/extract`, {
      method: "POST",
      headers: { "x-api-key": production },
      body: form,
    });
    expect(res.status).toBe(200);
    const docs = ((await res.json()) as any).documents as { status: string; error_message: string }[];
    expect(docs).toHaveLength(urls.length);
    for (const [i, d] of docs.entries()) {
      expect({ url: urls[i], status: d.status, error: d.error_message }).toEqual({
        url: urls[i],
        status: "error",
        error: expect.stringContaining("private, loopback"),
      });
    }
    expect(hits).toBe(0);
  });

  test("a webhook on an IPv4-compatible address is refused at registration", async () => {
    for (const url of ["https://[::127.0.0.1]/hook", "https://[::a9fe:a9fe]/hook", "https://[::8.8.8.8]/hook"]) {
      const r = await call(srv, "/v2/webhooks", { key: production, json: { url } });
      expect({ url, status: r.status }).toEqual({ url, status: 422 });
      expect(errorOf(r).code).toBe("URL_NOT_ALLOWED");
    }
  });
});

describe("test and production keys of one tenant", () => {
  const made = { course: "", document: "", webhook: "" };

  beforeAll(async () => {
    const course = await upload(
      "/v2/courses/generate-from-files?mode=sync",
      production,
      "moon.md",
      "text/markdown",
      MOON,
      { num_chapters: "1" },
    );
    expect(course.status).toBe(200);
    made.course = course.body.course.id;
    const processed = await upload(
      "/v2/documents/process",
      production,
      "tides.md",
      "text/markdown",
      "# Tides\n\nTides are caused by the Moon's gravity pulling on the oceans.\n",
    );
    expect(processed.status).toBe(200);
    made.document = processed.body.documents[0].id;
    const hook = await call(srv, "/v2/webhooks", {
      key: production,
      json: { url: "https://hooks.example.com/acme" },
    });
    expect(hook.status).toBe(201);
    made.webhook = hook.body.id;
  }, 300_000);

  test("a test key neither sees, reads, changes nor deletes production data", async () => {
    // The learner is unknown to the test environment until its first write there.
    expect((await call(srv, "/v2/courses", { key: testKey, user: "learner" })).status).toBe(404);
    expect((await call(srv, "/v2/users", { key: testKey, json: { external_id: "learner" } })).status).toBe(201);
    for (const path of ["/v2/courses", "/v2/documents"]) {
      const r = await call(srv, path, { key: testKey, user: "learner" });
      expect({ path, status: r.status, data: r.body.data }).toEqual({ path, status: 200, data: [] });
    }
    expect((await call(srv, "/v2/webhooks", { key: testKey })).body.data).toEqual([]);
    for (const [method, path, json] of [
      ["GET", `/v2/courses/${made.course}`],
      ["POST", `/v2/courses/${made.course}/ask`, { question: "What is the production topic?" }],
      ["POST", "/v2/documents/query", { question: "What causes tides?", document_ids: [made.document] }],
      ["DELETE", `/v2/documents/${made.document}`],
      ["DELETE", `/v2/webhooks/${made.webhook}`],
      ["POST", `/v2/webhooks/${made.webhook}/test`, {}],
    ] as [string, string, unknown?][]) {
      const r = await call(srv, path, { method, key: testKey, user: "learner", json });
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 404 });
      errorOf(r);
    }
    // Still there, for the production key.
    expect((await call(srv, `/v2/courses/${made.course}`, { key: production, user: "learner" })).status).toBe(200);
    const docs = await call(srv, "/v2/documents", { key: production, user: "learner" });
    expect(docs.body.data.map((d: { id: string }) => d.id)).toContain(made.document);
    const hooks = await call(srv, "/v2/webhooks", { key: production });
    expect(hooks.body.data.map((h: { id: string }) => h.id)).toEqual([made.webhook]);
  });

  test("what a test key makes is invisible to the production key, and usage is counted per environment", async () => {
    const processed = await upload(
      "/v2/documents/process",
      testKey,
      "trial.md",
      "text/markdown",
      "# Trial\n\nA document uploaded while trying the API.\n",
    );
    expect(processed.status).toBe(200);
    const trial = processed.body.documents[0].id;
    expect(
      (await call(srv, "/v2/documents", { key: testKey, user: "learner" })).body.data.map((d: { id: string }) => d.id),
    ).toEqual([trial]);
    const productionDocs = (await call(srv, "/v2/documents", { key: production, user: "learner" })).body.data.map(
      (d: { id: string }) => d.id,
    );
    expect(productionDocs).toContain(made.document);
    expect(productionDocs).not.toContain(trial);
    expect(
      (await call(srv, `/v2/documents/${trial}`, { method: "DELETE", key: production, user: "learner" })).status,
    ).toBe(404);
    // The learner "learner" is two learners, one per environment.
    const owners = withDb(
      srv.dataDir,
      (db) =>
        db
          .query<{ n: number }, []>("SELECT count(DISTINCT tenant_id) AS n FROM users WHERE external_id = 'learner'")
          .get()!,
    );
    expect(owners.n).toBe(2);
    const usage = await call(srv, "/v2/usage", { key: testKey });
    expect(usage.status).toBe(200);
    expect(usage.body.test_key_limits).not.toBeNull();
  });

  test("both environments share the tenant's rate limit", async () => {
    const p = await call(srv, "/v2/courses", { key: production, user: "learner" });
    const t = await call(srv, "/v2/courses", { key: testKey, user: "learner" });
    expect(Number(t.headers.get("x-ratelimit-remaining"))).toBe(Number(p.headers.get("x-ratelimit-remaining")) - 1);
  });
});
