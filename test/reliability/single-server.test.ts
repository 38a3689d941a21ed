/**
 * One server per DATA_DIR (#16 item 9): a second server on the same directory used to start, take
 * the first one's in-flight uploads for a crash's leftovers (deleting them) and double every rate
 * limit. Now it refuses to start, and the lock dies with its process, even under kill -9.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { call, cleanup, startServer, type TestServer, tempDir } from "../helpers/server.ts";
import { waitUntil } from "./harness.ts";
import { multipartBytes, rawRequest } from "./raw-http.ts";

const dataDir = tempDir("cf-lock-");
const running: TestServer[] = [];
afterAll(async () => {
  for (const s of running) await s.stop({ keepData: true });
  cleanup(dataDir);
});

const uploadsInFlight = () => (existsSync(join(dataDir, "tmp")) ? readdirSync(join(dataDir, "tmp")) : []);

test("a second server on the same DATA_DIR fails at once with a clear message and touches nothing", async () => {
  // The upload's body stalls for as long as the second server takes to start, however slow the machine.
  const first = await startServer({
    dataDir,
    env: { RATE_LIMIT_PER_MINUTE: "5", REQUEST_BODY_TIMEOUT_SECONDS: "240" },
  });
  running.push(first);
  const key = await first.createKey("acme", "production");

  // An upload in flight on the first server: its body is still arriving.
  const boundary = "cfLockBoundary";
  const body = multipartBytes(boundary, [
    {
      name: "files",
      filename: "notes.md",
      type: "text/markdown",
      data: `# Notes\n\n${"Tides follow the Moon. ".repeat(200)}`,
    },
  ]);
  const host = new URL(first.url).host;
  const head = `POST /v2/documents/process HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${key}\r\nX-External-User-Id: learner\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}`;
  let resume: () => void = () => {};
  const resumed = new Promise<void>((r) => (resume = r));
  const split = body.length - 40;
  const stalled = rawRequest(first.url, head, body.subarray(0, split), {
    timeoutMs: 250_000,
    rest: resumed.then(() => body.subarray(split)),
  });
  // However slow the machine, the second server starts only once the first holds the upload.
  await waitUntil("the upload in flight", uploadsInFlight, (files) => files.length > 0, 60_000, 50);
  expect(uploadsInFlight()).toHaveLength(1);

  const second = await startServer({ dataDir, env: { RATE_LIMIT_PER_MINUTE: "5" } }).then(
    (s) => {
      running.push(s);
      return "started";
    },
    (err: Error) => err.message,
  );
  expect(second).toContain("another courseforge server is already running on DATA_DIR");
  expect(second).not.toContain("    at "); // a message, not a stack trace

  // The first server's upload and limits are intact.
  expect(uploadsInFlight()).toHaveLength(1);
  expect((await call(first.url, "/v2/courses", { key, user: "learner" })).headers.get("x-ratelimit-limit")).toBe("5");
  expect(first.proc.exitCode).toBeNull();
  // The first server still takes the upload whole once its body arrives, and processes it.
  resume();
  const answered = await stalled;
  expect(answered.status).toBe(200);
  expect(JSON.parse(answered.body).documents.map((d: { status: string }) => d.status)).toEqual(["ready"]);
}, 300_000);

test("the lock dies with its process: after kill -9 a new server starts on the same DATA_DIR", async () => {
  const first = running.shift()!;
  await first.kill();
  const next = await startServer({ dataDir });
  running.push(next);
  expect((await call(next.url, "/health")).status).toBe(200);
});
