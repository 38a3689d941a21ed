/**
 * One notion of the request path (#32): the authentication middleware, the sign-in rules and the
 * router read the same path, whatever the Host header and with or without a trailing slash.
 * Requests go over a raw socket, since fetch() sets Host itself.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { routedPath } from "../../src/http/app.ts";
import { startApp, type TestApp } from "../helpers/app.ts";

let srv: TestApp;
let key: string;

beforeAll(async () => {
  // On a socket too: the raw requests set their own Host header.
  srv = await startApp({ listen: true });
  key = await srv.createKey("path-tenant", "test");
});
afterAll(() => srv?.stop());

/** Sends one raw HTTP/1.1 request and returns the status line's code and the whole answer. */
function raw(lines: string[], body = ""): Promise<{ status: number; text: string }> {
  const { port } = new URL(srv.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => {
      socket.write(`${lines.join("\r\n")}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`);
      socket.end(body);
    });
    let text = "";
    socket.on("data", (d) => {
      text += d.toString();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve({ status: Number(text.split(" ")[1]), text }));
  });
}

test("the middleware reads the path as the router does, for any Host", () => {
  for (const host of ["x", "ab", "a.b", "a.bc", "localhost:8080", "[::1]:80", "very-long-host.example.org"]) {
    for (const path of ["/", "/app/v2/courses", "/v2/console/session", "/health"]) {
      expect(routedPath(`http://${host}${path}?q=/x`)).toBe(new URL(`http://${host}${path}`).pathname);
    }
  }
  expect(routedPath("http://x/v2/console/session/")).toBe("/v2/console/session");
  expect(routedPath("http://x")).toBe("/");
});

test("a short Host header neither signs in nor reaches the API without a key", async () => {
  const body = JSON.stringify({ api_key: key, external_user_id: "mallory" });
  const signIn = await raw(
    ["POST /app/v2/console/session HTTP/1.1", "Host: x", "Content-Type: application/json"],
    body,
  );
  expect(signIn.status).not.toBe(201);
  expect(signIn.text.toLowerCase()).not.toContain("set-cookie: cf_console=");

  const list = await raw(["GET /app/v2/courses HTTP/1.1", "Host: x"]);
  expect(list.status).not.toBe(200);
  expect(list.text).not.toContain('"courses"');

  // The same requests on their own paths are the API's: a key is required.
  const keyless = await raw(["GET /v2/courses HTTP/1.1", "Host: x"]);
  expect(keyless.status).toBe(401);
});

test("a keyless upload is refused before its body is written anywhere", async () => {
  const boundary = "b0undary";
  const part = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`;
  const body = `${part}${"tides ".repeat(400_000)}\r\n--${boundary}--\r\n`;
  for (const path of ["/app/v2/documents/process", "/v2/documents/process", "/v2/documents/process/"]) {
    const res = await raw(
      [`POST ${path} HTTP/1.1`, "Host: x", `Content-Type: multipart/form-data; boundary=${boundary}`],
      body,
    );
    expect([401, 404, 405]).toContain(res.status);
  }
  const tmp = join(srv.dataDir, "tmp");
  expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
});

test("a trailing slash meets the sign-in rules: Origin required, then the key checked", async () => {
  const body = JSON.stringify({ api_key: key, external_user_id: "ada" });
  const noOrigin = await raw(
    [`POST /v2/console/session/ HTTP/1.1`, `Host: 127.0.0.1`, "Content-Type: application/json"],
    body,
  );
  expect(noOrigin.status).toBe(403);
  expect(noOrigin.text).toContain("CROSS_ORIGIN_REQUEST");
  const res = await fetch(`${srv.url}/v2/console/session/`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: srv.url },
    body,
  });
  expect(res.status).toBe(201);
});
