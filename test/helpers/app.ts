/**
 * The server in this process: the app built by `openApp` (what `courseforge serve` runs) on a temp
 * data directory, with its job worker, called through `app.handle` with no socket. Tests that need
 * no real process (crash, signals, the executable, memory ceilings, the browser) start it here: it
 * starts in milliseconds rather than a process's second, and it does not compete for the CPU.
 */
import { loadConfig } from "../../src/config.ts";
import type { Logger } from "../../src/log.ts";
import { listen, openApp } from "../../src/server.ts";
import { createKey, type KeyEnv } from "../../src/tenants/keys.ts";
import { cleanup, type StartOptions, type TestServer, tempDir, testServerEnv } from "./server.ts";

/** The origin an app without a socket answers as: its links and its Origin checks use it. */
const NO_SOCKET_ORIGIN = "http://courseforge.test";

export interface TestApp extends Omit<TestServer, "proc" | "kill"> {
  /** The composed services, for tests that look behind the API (database, queue, pools). */
  svc: Awaited<ReturnType<typeof openApp>>["svc"];
  /** The Elysia app, for tests of its routes themselves (their handlers, as Elysia compiles them). */
  app: Awaited<ReturnType<typeof openApp>>["app"];
}

export interface AppOptions extends Pick<StartOptions, "env" | "dataDir"> {
  /**
   * Serve on a loopback socket too (port 0), at `url`: for raw-socket clients, tests of what only a
   * socket has (idle timeouts, disconnects, Bun's body limits) and callers that hold only a URL.
   * `fetch` and `call` still go through `app.handle`.
   */
  listen?: boolean;
}

/** JSON lines like the server's own logger writes, kept in memory for `output()`. */
function capturingLogger(level: string): { log: Logger; output: () => string } {
  const ranks = ["debug", "info", "warn", "error"];
  const min = ranks.indexOf(level);
  let out = "";
  const at =
    (lvl: string) =>
    (msg: string, fields?: Record<string, unknown>): void => {
      if (ranks.indexOf(lvl) >= min)
        out += `${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`;
    };
  return {
    log: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error"), access: at("info") },
    output: () => out,
  };
}

export async function startApp(opts: AppOptions = {}): Promise<TestApp> {
  const dataDir = opts.dataDir ?? tempDir();
  const cfg = loadConfig({ ...process.env, ...testServerEnv(dataDir), ...opts.env });
  const { log, output } = capturingLogger(cfg.logLevel);
  const opened = await openApp(cfg, log, { bootstrap: false });
  const { app, svc } = opened;
  let url = NO_SOCKET_ORIGIN;
  if (opts.listen) url = listen(app, cfg);
  else if (!cfg.publicBaseUrl) cfg.baseUrl = url;
  await opened.startWorker();

  let stopped = false;
  const resolveUrl = (input: string | URL) =>
    typeof input === "string" && input.startsWith("/") ? url + input : input;
  return {
    url,
    dataDir,
    svc,
    app,
    output,
    async fetch(input, init) {
      // A request over a socket arrives on a later turn of the event loop, after the work a response
      // leaves for the next turn (Elysia's after-response hooks: access log, metrics) has run.
      await new Promise<void>((resolve) => setImmediate(resolve));
      return app.handle(new Request(resolveUrl(input), init));
    },
    async createKey(tenant: string, env: KeyEnv = "test", rateLimit?: number) {
      return (await createKey(svc.sql, { tenant, env, rateLimit: rateLimit ?? null })).key;
    },
    async stop(stopOpts) {
      // A test may stop it before its shared teardown does.
      if (stopped) return;
      stopped = true;
      const draining = opts.listen ? app.stop(true) : Promise.resolve();
      await opened.close(cfg.shutdownGraceMs, draining);
      if (!stopOpts?.keepData) cleanup(dataDir);
    },
  };
}
