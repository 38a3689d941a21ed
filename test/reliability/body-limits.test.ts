/**
 * Request bodies at and past the documented limits (#16 items 3, 6, 7 and 12): 50 MB per file
 * (inclusive), 500 MB per upload, 1 MiB per JSON body whatever its Content-Type, bounded nesting,
 * and bodies that stop arriving. Every refusal is our JSON error with X-Request-Id, and no
 * connection stays open for a body that never comes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, errorOf } from "../helpers/server.ts";
import { multipartBytes, type RawResponse, rawRequest, type StalledResult, stalledRequest } from "./raw-http.ts";

const MB50 = 52_428_800;
const MIB = 1_048_576;
/** Short, so stalled bodies are cut off quickly; the server closes idle sockets 8 s after it. */
const STALL_SECONDS = 1;

let srv: TestApp;
let key: string;
let host: string;

beforeAll(async () => {
  // Listening: the raw clients below speak HTTP on its socket, where Bun's own limits and timeouts apply.
  srv = await startApp({ listen: true, env: { REQUEST_BODY_TIMEOUT_SECONDS: String(STALL_SECONDS) } });
  key = await srv.createKey("acme", "production");
  host = new URL(srv.url).host;
});
afterAll(() => srv?.stop());

function expectOurError(r: RawResponse, status: number, code: string) {
  expect({ status: r.status, code: r.body ? JSON.parse(r.body).error?.code : null }).toEqual({ status, code });
  expect(JSON.parse(r.body).error.request_id).toBe(r.headers["x-request-id"]);
}

const head = (path: string, contentType: string, length: number | "chunked", user = true) =>
  `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${key}\r\n${user ? "X-External-User-Id: learner\r\n" : ""}Content-Type: ${contentType}\r\n` +
  (length === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${length}`);

/** A text file of exactly `size` bytes: a short note padded with spaces. */
function textFile(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(new TextEncoder().encode(`# Tides\n\n${"Tides follow the Moon and the Sun.\n".repeat(200)}`));
  bytes[size - 1] = 0x0a;
  return bytes;
}

describe("uploads", () => {
  test("a file of exactly 50 MB is accepted and extracted", async () => {
    const form = new FormData();
    form.append("files", new Blob([textFile(MB50)], { type: "text/plain" }), "fifty.txt");
    const res = await fetch(`${srv.url}/v2/documents/extract`, {
      method: "POST",
      headers: { "x-api-key": key },
      body: form,
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.documents.map((d: { filename: string; status: string }) => [d.filename, d.status])).toEqual([
      ["fifty.txt", "ready"],
    ]);
  }, 300_000);

  test("ten files of exactly 50 MB (the documented 500 MB in all, above Bun's own 128 MiB cap) arrive whole: the answer is about their type, not their size", async () => {
    // Bytes of no supported format: the type check runs once every file has arrived, and refuses
    // the request without extracting 500 MB.
    const blob = new Blob([new Uint8Array(MB50)], { type: "application/octet-stream" });
    const form = new FormData();
    for (let i = 0; i < 10; i++) form.append("files", blob, `part-${i}.bin`);
    const res = await fetch(`${srv.url}/v2/documents/extract`, {
      method: "POST",
      headers: { "x-api-key": key },
      body: form,
    });
    expect(res.status).toBe(415);
    expect(errorOf({ body: await res.json(), headers: res.headers }).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  }, 300_000);

  test("one byte over 50 MB is 413 with our error body, naming the file", async () => {
    const form = new FormData();
    form.append("files", new Blob([textFile(MB50 + 1)], { type: "text/plain" }), "too-big.txt");
    const res = await fetch(`${srv.url}/v2/documents/extract`, {
      method: "POST",
      headers: { "x-api-key": key },
      body: form,
    });
    expect(res.status).toBe(413);
    const e = errorOf({ body: await res.json(), headers: res.headers });
    expect(e.code).toBe("PAYLOAD_TOO_LARGE");
    expect(e.message).toContain("too-big.txt");
  }, 300_000);

  test("an upload declared larger than 500 MB in all is 413 with our error body before it is read", async () => {
    for (const path of ["/v2/documents/extract", "/v2/documents/process", "/v2/courses/generate-from-files"]) {
      const r = await rawRequest(
        srv.url,
        head(path, "multipart/form-data; boundary=cfBig", 600 * 1024 * 1024),
        "--cfBig\r\n",
        { timeoutMs: 15_000 },
      );
      expectOurError(r, 413, "PAYLOAD_TOO_LARGE");
    }
  });
});

describe("JSON bodies", () => {
  /** `{"external_id":"learner"` padded with spaces to exactly `size` bytes. */
  const padded = (size: number) => {
    const start = '{"external_id":"learner"';
    return `${start + " ".repeat(size - start.length - 1)}}`;
  };

  test("a body of exactly 1 MiB is read; one byte more is 413, whatever the declared type or framing", async () => {
    const exact = await call(srv.url, "/v2/users", {
      key,
      body: padded(MIB),
      headers: { "content-type": "application/json" },
    });
    expect(exact.status).toBe(201);
    const over = padded(MIB + 1);
    for (const contentType of [
      "application/json",
      "text/plain",
      "application/x-www-form-urlencoded",
      "application/octet-stream",
    ]) {
      const r = await rawRequest(srv.url, head("/v2/users", contentType, over.length), over, { timeoutMs: 15_000 });
      expect({ contentType, status: r.status }).toEqual({ contentType, status: 413 });
      expectOurError(r, 413, "PAYLOAD_TOO_LARGE");
    }
    const chunked = `${over.length.toString(16)}\r\n${over}\r\n0\r\n\r\n`;
    expectOurError(
      await rawRequest(srv.url, head("/v2/users", "application/json", "chunked"), chunked, { timeoutMs: 15_000 }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
  });

  test("20 MB sent as text/plain to the query endpoint is refused at once and the server stays responsive", async () => {
    const body = JSON.stringify({ question: "x".repeat(20_000_000) });
    const res = await fetch(`${srv.url}/v2/documents/query`, {
      method: "POST",
      headers: { "x-api-key": key, "x-external-user-id": "learner", "content-type": "text/plain" },
      body,
    });
    expect(res.status).toBe(413);
    expect(errorOf({ body: await res.json(), headers: res.headers }).code).toBe("PAYLOAD_TOO_LARGE");
    expect((await call(srv.url, "/health")).status).toBe(200);
  });

  test("arrays and objects nested 20,000 and 100,000 deep are 422 INVALID_BODY, not a 500", async () => {
    for (const depth of [20_000, 100_000]) {
      for (const [open, close] of [
        ["[", "]"],
        ['{"a":', "}"],
      ]) {
        const body = `{"question":"What causes tides?","document_ids":${open!.repeat(depth)}${open === "[" ? "" : "1"}${close!.repeat(depth)}}`;
        const r = await call(srv.url, "/v2/documents/query", {
          key,
          user: "learner",
          body,
          headers: { "content-type": "application/json" },
        });
        expect({ depth, open, status: r.status }).toEqual({ depth, open, status: 422 });
        expect(errorOf(r).code).toBe("INVALID_BODY");
      }
    }
  });
});

describe("bodies that stop arriving", () => {
  const waitMs = 30_000;
  const boundary = "cfStallBoundary";
  const upload = multipartBytes(boundary, [
    {
      name: "files",
      filename: "notes.md",
      type: "text/markdown",
      data: `# Notes\n\n${"Tides follow the Moon. ".repeat(500)}`,
    },
  ]);

  // Each connection is held until the server's idle timeout closes it: the two groups are sent
  // together, so the file waits out that timeout once, not once per test.
  let stalled: Promise<StalledResult[]>;
  let refused: Promise<StalledResult[]>;
  beforeAll(() => {
    stalled = Promise.all([
      ...Array.from({ length: 10 }, () =>
        stalledRequest(srv.url, head("/v2/documents/query", "application/json", 400), '{"question": "What cau', waitMs),
      ),
      ...Array.from({ length: 5 }, () =>
        stalledRequest(
          srv.url,
          head("/v2/documents/process", `multipart/form-data; boundary=${boundary}`, upload.length),
          upload.subarray(0, 2000),
          waitMs,
        ),
      ),
    ]);
    refused = Promise.all([
      // Refused on its declared size, its type, its key, or its route.
      stalledRequest(srv.url, head("/v2/documents/query", "application/json", 2 * MIB), "{", waitMs),
      stalledRequest(srv.url, head("/v2/documents/query", "text/plain", 400), "{", waitMs),
      stalledRequest(
        srv.url,
        head("/v2/documents/extract", `multipart/form-data; boundary=${boundary}`, 900 * MIB),
        "--",
        waitMs,
      ),
      stalledRequest(
        srv.url,
        head("/v2/courses/00000000-0000-4000-8000-000000000000/resume", "application/json", 400),
        "{",
        waitMs,
      ),
      stalledRequest(srv.url, head("/v2/no-such-route", "application/json", 400), "{", waitMs),
      stalledRequest(
        srv.url,
        head("/v2/documents/query", "application/json", 400).replace(`X-API-Key: ${key}`, "X-API-Key: sk-wrong"),
        "{",
        waitMs,
      ),
    ]);
  });

  test("stalled JSON and upload bodies get 408 REQUEST_TIMEOUT and their connections are closed; nothing is left in tmp/", async () => {
    for (const s of await stalled) {
      expectOurError(s.response, 408, "REQUEST_TIMEOUT");
      expect(s.closedByServer).toBe(true);
    }
    const tmp = join(srv.dataDir, "tmp");
    expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
  }, 300_000);

  test("a body refused before it was read, then never finished, does not keep its connection open", async () => {
    for (const s of await refused) {
      expect(s.response.status).toBeGreaterThanOrEqual(400);
      expect(JSON.parse(s.response.body).error.request_id).toBe(s.response.headers["x-request-id"]);
      expect(s.closedByServer).toBe(true);
    }
  }, 300_000);
});
