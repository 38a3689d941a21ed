/**
 * Starts the real server (`bun src/main.ts serve`) as a child process on 127.0.0.1 with its own
 * data directory, and gives tests a small client for it. Only for what needs a process (kills,
 * signals, the executable, memory ceilings, the browser); everything else uses helpers/app.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Subprocess, spawn } from "bun";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { createKey, type KeyEnv } from "../../src/tenants/keys.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const BUN = process.execPath;

export interface TestServer {
  url: string;
  dataDir: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** A request to the server: `input` is a path (from its root) or an absolute URL. */
  fetch(input: string | URL, init?: RequestInit): Promise<Response>;
  /** Everything the server printed so far (JSON log lines). */
  output(): string;
  /** Creates a tenant (if needed) and an API key directly in the server's database. */
  createKey(tenant: string, env?: KeyEnv, rateLimit?: number): Promise<string>;
  /** SIGKILL, no cleanup: the data directory stays for a restart. */
  kill(): Promise<void>;
  /** Graceful stop (SIGTERM) and removal of the data directory unless `keepData`. */
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  dataDir?: string;
  args?: string[];
  /** Command to run instead of `bun src/main.ts` (e.g. the compiled executable). */
  command?: string[];
  cwd?: string;
}

/** Settings for a test server that should not wait: no real pauses between retries, short job leases, high rate limits. */
export const FAST_ENV: Record<string, string> = {
  RATE_LIMIT_PER_MINUTE: "100000",
  GENERATION_RETRY_DELAY_MS: "10",
  JOB_LEASE_SECONDS: "5",
  LLM_TIMEOUT_MS: "20000",
};

/**
 * What every test server runs with, process or in process: loopback on a free port, its own data,
 * the built-in engine and embedder, and no model host that could answer.
 */
export const testServerEnv = (dataDir: string): Record<string, string> => ({
  HOST: "127.0.0.1",
  PORT: "0",
  DATA_DIR: dataDir,
  LLM_PROVIDER: "extractive",
  EMBEDDER: "builtin",
  LOG_LEVEL: "info",
  OLLAMA_HOST: "http://127.0.0.1:9",
  // Under a test's 300 s budget, not the default 120 s: a paper's extraction passed 120 s beside other work.
  INGEST_TIMEOUT_MS: "280000",
});

export function tempDir(prefix = "cf-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir();
  const command = opts.command ?? [BUN, join(ROOT, "src/main.ts")];
  const proc = spawn([...command, "serve", "--no-bootstrap", ...(opts.args ?? [])], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...testServerEnv(dataDir), ...opts.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });

  let out = "";
  const decoder = new TextDecoder();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) out += decoder.decode(chunk, { stream: true });
  };
  void pump(proc.stdout);
  void pump(proc.stderr);

  // A process start takes a second on an idle machine and far longer beside other work (past 120 s once).
  const startMs = 240_000;
  const deadline = Date.now() + startMs;
  let url: string | null = null;
  while (!url) {
    const m = /"msg":"courseforge listening","address":"([^"]+)"/.exec(out);
    if (m) url = m[1]!;
    else if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${out}`);
    else if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`server did not start within ${startMs / 1000} s:\n${out}`);
    } else await Bun.sleep(20);
  }

  return {
    url,
    dataDir,
    proc,
    fetch: (input, init) => fetch(typeof input === "string" && input.startsWith("/") ? url + input : input, init),
    output: () => out,
    async createKey(tenant, env = "test", rateLimit) {
      const { sqlite } = await openDb(dataDir, { migrate: false });
      try {
        return (await createKey(sqliteSql(sqlite), { tenant, env, rateLimit: rateLimit ?? null })).key;
      } finally {
        sqlite.close();
      }
    },
    async kill() {
      proc.kill("SIGKILL");
      await proc.exited;
    },
    async stop(stopOpts) {
      if (proc.exitCode === null) {
        proc.kill("SIGTERM");
        const exited = await Promise.race([proc.exited, Bun.sleep(15_000).then(() => null)]);
        if (exited === null) {
          proc.kill("SIGKILL");
          await proc.exited;
        }
      }
      if (!stopOpts?.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CallOptions {
  method?: string;
  key?: string | null;
  user?: string | null;
  userId?: string | null;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

/** What tests call: a server's base URL, or a server (a process, or the app in this process: helpers/app.ts). */
export type Target = string | Pick<TestServer, "fetch">;

/** A request to `target`; `path` starts at its root. */
export function request(target: Target, path: string, init?: RequestInit): Promise<Response> {
  return typeof target === "string" ? fetch(target + path, init) : target.fetch(path, init);
}

/** One HTTP call with the API's headers; returns status, headers and the parsed JSON body. */
export async function call<T = any>(target: Target, path: string, opts: CallOptions = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers["x-api-key"] = opts.key;
  if (opts.user) headers["x-external-user-id"] = opts.user;
  if (opts.userId) headers["x-user-id"] = opts.userId;
  let body = opts.body;
  if (opts.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.json);
  }
  const res = await request(target, path, { method: opts.method ?? (body ? "POST" : "GET"), headers, body });
  const text = await res.text();
  let json: T | null = null;
  try {
    json = text ? (JSON.parse(text) as T) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, body: json as T, text };
}

/** Asserts the service's error body shape and returns its error object. */
export function errorOf(res: { body: any; headers: Headers }) {
  const e = res.body?.error;
  if (
    !e ||
    typeof e.code !== "string" ||
    typeof e.message !== "string" ||
    e.request_id !== res.headers.get("x-request-id")
  ) {
    throw new Error(`not an error body: ${JSON.stringify(res.body)}`);
  }
  return e as { code: string; message: string; request_id: string; details?: unknown };
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
