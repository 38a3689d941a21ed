/**
 * Hostile input: broken multipart framing, bodies shorter than they claim, oversized headers,
 * invalid UTF-8 in form fields, path traversal in uploaded file names, and one tenant guessing
 * another's ids on every endpoint that takes one. Each gets a clear 4xx (our error body where the
 * request reached the application), nothing leaks, nothing is stored, and the server stays up.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { type FakeModel, startFakeModel } from "../helpers/fake-model.ts";
import { call, errorOf, startServer, type TestServer } from "../helpers/server.ts";
import { withDb } from "./harness.ts";
import { multipartBytes, type RawResponse, rawRequest } from "./raw-http.ts";

const MULTIPART_ENDPOINTS = ["/v2/documents/extract", "/v2/documents/process", "/v2/courses/generate-from-files"];
const BOUNDARY = "cfHostileBoundary7MA4YWxk";
const NOTE = "# Tides\n\nTides are caused by the gravitational pull of the Moon and the Sun on the oceans.\n";

let model: FakeModel;
let srv: TestServer;
let dataDir: string;
let keyA: string;
let keyB: string;
/** Things tenant A owns, which tenant B guesses. */
const a = {
  courseId: "",
  jobId: "",
  documentId: "",
  webhookId: "",
  userId: "",
  mediaUrl: "",
  title: "",
  filename: "owner-secret-notes.md",
};

const start = (dir?: string) => startServer({ dataDir: dir, env: model.env });

/** A multipart request sent byte for byte, as tenant A's learner. */
function sendMultipart(
  path: string,
  contentType: string,
  body: Uint8Array,
  opts: { declaredLength?: number; halfClose?: boolean } = {},
): Promise<RawResponse> {
  const host = new URL(srv.url).host;
  const head =
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${keyA}\r\nX-External-User-Id: owner\r\n` +
    `Content-Type: ${contentType}\r\nContent-Length: ${opts.declaredLength ?? body.length}`;
  return rawRequest(srv.url, head, body, { halfClose: opts.halfClose, timeoutMs: 15_000 });
}

function expectErrorBody(r: RawResponse, status: number | number[], code?: string) {
  expect(Array.isArray(status) ? status : [status]).toContain(r.status);
  const body = JSON.parse(r.body);
  expect(body.error).toMatchObject({
    code: code ?? expect.any(String),
    message: expect.any(String),
    request_id: r.headers["x-request-id"],
  });
}

const counts = () =>
  withDb(
    dataDir,
    (db) =>
      db
        .query<{ docs: number; courses: number; jobs: number }, []>(
          "SELECT (SELECT count(*) FROM documents) AS docs, (SELECT count(*) FROM courses) AS courses, (SELECT count(*) FROM jobs) AS jobs",
        )
        .get()!,
  );

/** Upload staging entries under DATA_DIR/tmp (a request must remove its own). */
const tmpEntries = () => (existsSync(join(dataDir, "tmp")) ? readdirSync(join(dataDir, "tmp")).sort() : []);

/** Every file under DATA_DIR/blobs has a blob key's shape: yyyy/mm/<uuid>.<ext>. */
function blobFiles(): string[] {
  const root = join(dataDir, "blobs");
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath, d.name)));
}

beforeAll(async () => {
  model = startFakeModel({ latencyMs: 1, env: { OUTBOUND_ALLOW: "127.0.0.1" } });
  srv = await start();
  dataDir = srv.dataDir;
  keyA = await srv.createKey("tenant-a", "production");
  keyB = await srv.createKey("tenant-b", "production");

  const gen = await call(srv.url, "/v2/courses/generate?mode=sync", {
    key: keyA,
    user: "owner",
    json: { topic: "The owner's private topic", num_chapters: 1 },
  });
  expect(gen.status).toBe(200);
  a.courseId = gen.body.course.id;
  a.title = gen.body.course.title;
  a.jobId = (await call(srv.url, `/v2/courses/${a.courseId}/progress`, { key: keyA, user: "owner" })).body.job_id;
  const form = new FormData();
  form.append("files", new Blob([NOTE], { type: "text/markdown" }), a.filename);
  const processed = await fetch(`${srv.url}/v2/documents/process`, {
    method: "POST",
    headers: { "x-api-key": keyA, "x-external-user-id": "owner" },
    body: form,
  });
  a.documentId = ((await processed.json()) as any).documents[0].id;
  const extractForm = new FormData();
  extractForm.append("files", new Blob([NOTE], { type: "text/markdown" }), a.filename);
  const extracted = await fetch(`${srv.url}/v2/documents/extract`, {
    method: "POST",
    headers: { "x-api-key": keyA, "x-external-user-id": "owner" },
    body: extractForm,
  });
  a.mediaUrl = ((await extracted.json()) as any).documents[0].source_url;
  const hook = await call(srv.url, "/v2/webhooks", {
    key: keyA,
    json: { url: "https://127.0.0.1:9/owner-hook", events: ["course.completed"] },
  });
  expect(hook.status).toBeLessThan(300);
  a.webhookId = hook.body.id;
  a.userId =
    (await call(srv.url, "/v2/users/me", { key: keyA, user: "owner" })).body.id ??
    (await call(srv.url, "/v2/users/me", { key: keyA, user: "owner" })).body.user_id;
  // Tenant B has a learner with the same external id: scoping must be by tenant, not by that string.
  expect((await call(srv.url, "/v2/users", { key: keyB, json: { external_id: "owner" } })).status).toBe(201);
}, 300_000);

afterAll(async () => {
  await srv?.stop();
  await model?.stop();
});

// A request that crashes the server must fail only its own test: the next one gets a fresh process.
beforeEach(async () => {
  const alive = await fetch(`${srv.url}/health`).then(
    (r) => r.ok,
    () => false,
  );
  if (alive) return;
  await srv.proc.exited;
  srv = await start(dataDir);
});

describe("malformed multipart", () => {
  const file = { name: "files", filename: "tides.md", type: "text/markdown", data: NOTE };

  const good = multipartBytes(BOUNDARY, [file]);
  const framings: [name: string, contentType: string, body: Uint8Array][] = [
    ["no boundary", "multipart/form-data", good],
    ["a wrong boundary", "multipart/form-data; boundary=SomethingElse", good],
    ["a part cut off mid-file", `multipart/form-data; boundary=${BOUNDARY}`, good.subarray(0, good.indexOf("Moon"))],
    ["no final boundary", `multipart/form-data; boundary=${BOUNDARY}`, multipartBytes(BOUNDARY, [file], false)],
  ];

  for (const path of MULTIPART_ENDPOINTS) {
    for (const [name, contentType, body] of framings) {
      test(`${path}: ${name} → 422 with our error body, nothing stored, server up`, async () => {
        const before = { rows: counts(), tmp: tmpEntries() };
        const r = await sendMultipart(path, contentType, body);
        expect({ status: r.status, alive: srv.proc.exitCode === null }).toEqual({ status: 422, alive: true });
        expectErrorBody(r, 422);
        // No temp file of its own is left; an earlier request's may go meanwhile (later on a loaded machine).
        expect(counts()).toEqual(before.rows);
        expect(tmpEntries().filter((e) => !before.tmp.includes(e))).toEqual([]);
      });
    }

    test(`${path}: a body shorter than its Content-Length, then the client gives up → 4xx or a closed connection, never a crash`, async () => {
      const body = multipartBytes(BOUNDARY, [file]);
      const r = await sendMultipart(path, `multipart/form-data; boundary=${BOUNDARY}`, body, {
        declaredLength: body.length + 5000,
        halfClose: true,
      });
      if (!r.closedWithoutResponse) expectErrorBody(r, [400, 422]);
      await Bun.sleep(100);
      expect(srv.proc.exitCode).toBeNull();
      expect((await call(srv.url, "/health")).status).toBe(200);
    });
  }

  test("invalid UTF-8 in a text field is 422, not stored as mojibake", async () => {
    const badBytes = Buffer.from([0x54, 0x69, 0x64, 0xff, 0xfe, 0x65, 0x73, 0x20, 0x61, 0x6e, 0x64, 0xc3, 0x28]);
    const before = counts();
    for (const [path, field] of [
      ["/v2/courses/generate-from-files", "topic"],
      ["/v2/documents/process", "space_id"],
      ["/v2/documents/extract", "space_id"],
    ] as const) {
      const body = multipartBytes(BOUNDARY, [{ name: field, data: badBytes }, file]);
      const r = await sendMultipart(path, `multipart/form-data; boundary=${BOUNDARY}`, body);
      expect({ path, status: r.status }).toEqual({ path, status: 422 });
      expectErrorBody(r, 422);
    }
    expect(counts()).toEqual(before);
  });
});

describe("file names", () => {
  const traversals = [
    "../../../../../../tmp/cf-hostile-escape.md",
    "..\\..\\..\\cf-hostile-escape.md",
    "/etc/cf-hostile-escape.md",
    "blobs/../../cf-hostile-escape.md",
  ];

  for (const path of ["/v2/documents/extract", "/v2/documents/process"]) {
    test(`${path}: path traversal in uploaded names never leaves DATA_DIR; the name is cut to its last segment`, async () => {
      for (const name of traversals) {
        const r = await sendMultipart(
          path,
          `multipart/form-data; boundary=${BOUNDARY}`,
          multipartBytes(BOUNDARY, [{ name: "files", filename: name, type: "text/markdown", data: NOTE }]),
        );
        expect(r.status).toBe(200);
        const doc = JSON.parse(r.body).documents[0];
        expect(doc).toMatchObject({ filename: "cf-hostile-escape.md", status: "ready" });
        const stored = withDb(
          dataDir,
          (db) =>
            db
              .query<{ blob_key: string | null; filename: string }, [string]>(
                "SELECT blob_key, filename FROM documents WHERE id = ?",
              )
              .get(doc.id)!,
        );
        expect(stored.filename).toBe("cf-hostile-escape.md");
        expect(stored.blob_key).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/);
      }
      for (const escaped of [
        "/tmp/cf-hostile-escape.md",
        "/etc/cf-hostile-escape.md",
        join(dataDir, "..", "cf-hostile-escape.md"),
        join(dataDir, "cf-hostile-escape.md"),
      ]) {
        expect(existsSync(escaped)).toBe(false);
      }
      for (const f of blobFiles()) expect(f).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/);
    });
  }

  test("invalid UTF-8 in an uploaded file name is replaced, never stored raw", async () => {
    const name = Buffer.from([0x6e, 0x6f, 0x74, 0x65, 0xff, 0xc3, 0x28, 0x2e, 0x6d, 0x64]);
    const r = await sendMultipart(
      "/v2/documents/process",
      `multipart/form-data; boundary=${BOUNDARY}`,
      multipartBytes(BOUNDARY, [{ name: "files", filename: name, type: "text/markdown", data: NOTE }]),
    );
    expect(r.status).toBe(200);
    const doc = JSON.parse(r.body).documents[0];
    expect(doc.filename).toStartWith("note");
    expect(doc.filename).toEndWith(".md");
    expect(Buffer.from(doc.filename).toString("utf8")).toBe(doc.filename);
  });
});

describe("headers and bodies", () => {
  test("an oversized header block is 431 and the server keeps serving", async () => {
    const host = new URL(srv.url).host;
    const r = await rawRequest(
      srv.url,
      `GET /v2/courses HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${keyA}\r\nX-Padding: ${"x".repeat(80_000)}`,
    );
    expect(r.status).toBe(431);
    expect((await call(srv.url, "/v2/courses", { key: keyA, user: "owner" })).status).toBe(200);
  });

  test("a JSON body shorter than its Content-Length is a 4xx or a closed connection and starts nothing", async () => {
    const before = counts();
    const host = new URL(srv.url).host;
    const head = `POST /v2/courses/generate HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${keyA}\r\nX-External-User-Id: owner\r\nContent-Type: application/json\r\nContent-Length: 400`;
    const r = await rawRequest(srv.url, head, '{"topic": "Tides and the Mo', { halfClose: true, timeoutMs: 15_000 });
    if (!r.closedWithoutResponse) expectErrorBody(r, [400, 422]);
    expect(counts()).toEqual(before);
    expect(srv.proc.exitCode).toBeNull();
  });
});

describe("cross-tenant id guessing", () => {
  const guesses = (): [method: string, path: string, json?: unknown][] => [
    ["GET", `/v2/courses/${a.courseId}`],
    ["GET", `/v2/courses/${a.courseId}/progress`],
    ["POST", `/v2/courses/${a.courseId}/resume`, {}],
    ["GET", `/v2/courses/${a.courseId}/podcasts`],
    ["POST", `/v2/courses/${a.courseId}/podcasts/generate`, {}],
    ["GET", `/v2/courses/${a.courseId}/study-guide`],
    ["POST", `/v2/courses/${a.courseId}/generate-notes`, {}],
    ["GET", `/v2/courses/${a.courseId}/notes`],
    ["POST", `/v2/courses/${a.courseId}/generate-flashcards`, {}],
    ["POST", `/v2/courses/${a.courseId}/generate-exam`, { exam_size: 10 }],
    ["POST", `/v2/courses/${a.courseId}/ask`, { question: "What is the owner's private topic?" }],
    ["GET", `/v2/jobs/${a.jobId}`],
    ["GET", `/jobs/${a.jobId}`],
    ["DELETE", `/v2/documents/${a.documentId}`],
    ["POST", "/v2/documents/query", { question: "What causes tides?", document_ids: [a.documentId] }],
    ["DELETE", `/v2/webhooks/${a.webhookId}`],
    ["POST", `/v2/webhooks/${a.webhookId}/test`, {}],
    ["GET", `/v2/webhooks/${a.webhookId}/deliveries`],
  ];

  test("every id-taking endpoint answers another tenant's id with 404 and our error body, revealing nothing", async () => {
    const before = counts();
    for (const [method, path, json] of guesses()) {
      const r = await call(srv.url, path, { method, key: keyB, user: "owner", json });
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 404 });
      errorOf(r);
      for (const secret of [a.title, a.filename, "owner-hook", "Tides are caused"])
        expect(r.text).not.toContain(secret);
    }
    expect(counts()).toEqual(before);
  });

  test("another tenant's learner UUID in X-User-Id is unknown, on reads and on writes", async () => {
    expect(a.userId).toMatch(/^[0-9a-f-]{36}$/);
    const read = await call(srv.url, "/v2/courses", { key: keyB, userId: a.userId });
    expect(read.status).toBe(404);
    errorOf(read);
    const before = counts();
    const write = await call(srv.url, "/v2/courses/generate", {
      key: keyB,
      userId: a.userId,
      json: { topic: "Planted in another tenant", num_chapters: 1 },
    });
    expect(write.status).toBe(404);
    errorOf(write);
    expect(counts()).toEqual(before);
  });

  test("lists never show another tenant's records", async () => {
    for (const path of ["/v2/courses", "/v2/documents"]) {
      const r = await call(srv.url, path, { key: keyB, user: "owner" });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
    }
    const hooks = await call(srv.url, "/v2/webhooks", { key: keyB });
    expect(hooks.body.data).toEqual([]);
  });

  test("a media URL works only with its own signature", async () => {
    expect(a.mediaUrl).toContain("/media/");
    // Rebased on the current server: a crash in an earlier test may have restarted it on another port.
    const original = new URL(a.mediaUrl);
    const signed = new URL(original.pathname + original.search, srv.url);
    expect((await fetch(signed)).status).toBe(200);
    const bare = await call(srv.url, signed.pathname);
    expect(bare.status).toBe(403);
    errorOf(bare);
    const forged = await call(
      srv.url,
      `${signed.pathname}?exp=${signed.searchParams.get("exp")}&sig=${"0".repeat(64)}`,
    );
    expect(forged.status).toBe(403);
    const later = await call(
      srv.url,
      `${signed.pathname}?exp=${Number(signed.searchParams.get("exp")) + 3600}&sig=${signed.searchParams.get("sig")}`,
    );
    expect(later.status).toBe(403);
  });

  test("the owner's data is untouched by the guesses", async () => {
    const course = await call(srv.url, `/v2/courses/${a.courseId}`, { key: keyA, user: "owner" });
    expect(course.body).toMatchObject({ id: a.courseId, title: a.title, status: "completed" });
    const docs = await call(srv.url, "/v2/documents", { key: keyA, user: "owner" });
    expect(docs.body.data).toContainEqual(expect.objectContaining({ id: a.documentId, status: "ready" }));
    const hooks = await call(srv.url, "/v2/webhooks", { key: keyA });
    expect(hooks.body.data).toEqual([expect.objectContaining({ id: a.webhookId, active: true })]);
    const deliveries = await call(srv.url, `/v2/webhooks/${a.webhookId}/deliveries`, { key: keyA });
    expect(JSON.stringify(deliveries.body)).not.toContain('"test"');
    const materials = withDb(
      dataDir,
      (db) =>
        db
          .query<{ n: number }, [string, string]>(
            "SELECT (SELECT count(*) FROM course_notes WHERE course_id = ?) + (SELECT count(*) FROM flashcard_decks WHERE course_id = ?) AS n",
          )
          .get(a.courseId, a.courseId)!,
    );
    expect(materials.n).toBe(0);
  });
});
