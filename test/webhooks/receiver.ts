/**
 * A real HTTPS webhook receiver on 127.0.0.1 for the tests: a self-signed CA certificate made with
 * openssl (the server under test trusts it through WEBHOOK_CA_FILE), every request recorded with
 * its raw body, and a per-path answer the test chooses. Plain HTTP for a test that runs the
 * delivery job alone, without the composed sender.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { join } from "node:path";
import type { Server } from "bun";

export interface Received {
  path: string;
  headers: Record<string, string>;
  raw: string;
  at: number;
}

/** Answers a request to a path; `hang` never answers (until the receiver stops). */
export type Reply = number | { status: number; headers?: Record<string, string> } | "hang";

export interface Receiver {
  url: string;
  port: number;
  /** Empty for a plain HTTP receiver. */
  certFile: string;
  received: Received[];
  to(path: string): Received[];
  /** Sets the answers of a path: the n-th request gets replies[n], the last one repeats. */
  reply(path: string, ...replies: Reply[]): void;
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  stop(): void;
}

/** Writes cert.pem + key.pem (a self-signed CA certificate valid for 127.0.0.1 and localhost) to dir. */
export function makeCertificate(dir: string): { certFile: string; keyFile: string } {
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  const r = Bun.spawnSync([
    "openssl",
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    keyFile,
    "-out",
    certFile,
    "-days",
    "2",
    "-subj",
    "/CN=courseforge webhook test receiver",
    "-addext",
    "subjectAltName=IP:127.0.0.1,DNS:localhost",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
  ]);
  if (r.exitCode !== 0) throw new Error(`openssl failed: ${r.stderr.toString()}`);
  return { certFile, keyFile };
}

export function startReceiver(dir: string, opts: { tls?: boolean } = {}): Receiver {
  const { certFile, keyFile } = opts.tls === false ? { certFile: "", keyFile: "" } : makeCertificate(dir);
  const received: Received[] = [];
  const replies = new Map<string, Reply[]>();
  const hanging = new Set<() => void>();
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: certFile ? { cert: Bun.file(certFile), key: Bun.file(keyFile) } : undefined,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const raw = await req.text();
      const n = received.filter((r) => r.path === path).length;
      received.push({ path, headers: Object.fromEntries(req.headers), raw, at: Date.now() });
      const list = replies.get(path) ?? [200];
      const reply = list[Math.min(n, list.length - 1)]!;
      if (reply === "hang") {
        return new Promise<Response>((resolve) => hanging.add(() => resolve(new Response("late", { status: 200 }))));
      }
      const r = typeof reply === "number" ? { status: reply } : reply;
      return new Response(r.status === 204 || (r.status >= 300 && r.status < 400) ? null : "ok", {
        status: r.status,
        headers: r.headers,
      });
    },
  });
  const url = `${certFile ? "https" : "http"}://127.0.0.1:${server.port}`;
  const to = (path: string) => received.filter((r) => r.path === path);
  return {
    url,
    port: server.port!,
    certFile,
    received,
    to,
    reply: (path, ...list) => void replies.set(path, list),
    async waitFor(path, count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(path).length < count) {
        if (Date.now() > deadline)
          throw new Error(`receiver got ${to(path).length} of ${count} requests on ${path} in ${timeoutMs} ms`);
        await Bun.sleep(25);
      }
      return to(path);
    },
    stop() {
      for (const release of hanging) release();
      server.stop(true);
    },
  };
}

/** What a receiver does: HMAC-SHA256 of the raw body with the secret, compared in constant time. */
export function verifySignature(secret: string, raw: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(raw).digest("hex"));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
