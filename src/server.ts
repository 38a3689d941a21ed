/** Opens the database, composes the services (compose.ts), registers the jobs, and serves HTTP until stopped. */
import type { AnyElysia } from "elysia";
import { type AppServices, composeServices } from "./compose.ts";
import type { Config } from "./config.ts";
import { lockDataDir } from "./db/data-dir-lock.ts";
import { openStore } from "./db/open.ts";
import { keepIngestLeases } from "./documents/ingest-leases.ts";
import { failInterruptedDocuments } from "./documents/records.ts";
import { relayCourseEvents } from "./events/course-relay.ts";
import { createApp } from "./http/app.ts";
import { sweepUploads } from "./http/multipart.ts";
import { registeredJobs } from "./job-handlers.ts";
import { queueDepth } from "./jobs/queue.ts";
import { JobWorker } from "./jobs/worker.ts";
import { createLogger, type Logger } from "./log.ts";
import { registerQueueDepth } from "./metrics.ts";
import { announceVectorSupport } from "./retrieval/postgres-vector-tables.ts";
import { staleChunkCount } from "./retrieval/reindex.ts";
import { createKey, hasAnyKey } from "./tenants/keys.ts";

export interface RunningServer {
  url: string;
  svc: AppServices;
  stop(): Promise<void>;
}

/** The server short of its socket: what `startServer` listens with, and what tests call in process. */
export interface OpenedApp {
  app: AnyElysia;
  svc: AppServices;
  /** Starts the job worker; call once `cfg.baseUrl` is final, since jobs write links with it. */
  startWorker(): Promise<void>;
  /**
   * Stops the worker (running jobs go back to the queue at their next commit point) and, once
   * `draining` (the requests still in flight) is over too, closes the data.
   */
  close(graceMs: number, draining?: Promise<unknown>): Promise<void>;
}

export async function openApp(cfg: Config, log: Logger, opts: { bootstrap: boolean }): Promise<OpenedApp> {
  // Before anything that assumes this is the only server: the sweep of uploads and the
  // interrupted-documents pass below would break a running server's requests.
  const lock = lockDataDir(cfg.dataDir);
  const store = await openStore(cfg);
  await sweepUploads(cfg.dataDir);
  const interrupted = await failInterruptedDocuments({ sql: store.sql }, lock.node);
  if (interrupted > 0) log.warn("documents interrupted by the last stop marked as errors", { count: interrupted });

  const svc = await composeServices(cfg, { ...store, node: lock.node }, log);
  if (svc.sql.dialect === "postgres") await announceVectorSupport(svc.sql, log);
  if (opts.bootstrap && !(await hasAnyKey(svc.sql))) {
    const { key } = await createKey(svc.sql, { tenant: "default", env: "test" });
    // Printed once, in plain text, so a new user can copy it; it is never logged again.
    process.stdout.write(`\nCreated tenant "default" with a test API key (shown only now):\n\n  ${key}\n\n`);
  }
  const stale = await staleChunkCount(svc);
  if (stale > 0) {
    log.warn("indexed chunks were embedded by another embedder; run `courseforge reindex` to re-embed them", {
      chunks: stale,
      embedder: svc.embedder.id,
    });
  }
  const worker = new JobWorker(svc.sql, log, registeredJobs(svc), {
    concurrency: cfg.jobConcurrency,
    leaseSeconds: cfg.jobLeaseSeconds,
    maxStalls: cfg.jobMaxStalls,
    tenantShare: cfg.jobTenantShare,
    clock: svc.clock,
    events: svc.events,
  });
  let stopIngestLeases = () => {};
  // A course's job runs on whichever node claims it; its followers may be on any other.
  const stopRelay = svc.sql.dialect === "postgres" ? await relayCourseEvents(svc) : null;
  return {
    app: createApp(svc),
    svc,
    async startWorker() {
      await worker.start();
      // Nodes sharing PostgreSQL end each other's abandoned uploads; SQLite's start ends its own.
      if (svc.sql.dialect === "postgres") stopIngestLeases = keepIngestLeases(svc, cfg.jobLeaseSeconds);
      registerQueueDepth(() => queueDepth(svc.sql));
    },
    async close(graceMs, draining) {
      const checkpoint = worker.stop(graceMs);
      await draining;
      stopIngestLeases();
      await checkpoint;
      await stopRelay?.();
      svc.extraction.close();
      await store.close();
      lock.release();
    },
  };
}

/** Listens on `cfg.host`/`cfg.port` and returns the address; `cfg.baseUrl` follows it unless a public one is set. */
export function listen(app: AnyElysia, cfg: Config): string {
  // Elysia turns SO_REUSEPORT on by default; then a second server on the same port would silently
  // share its traffic. One server owns a port (and a data directory): a second start must fail.
  // Bun's own body cap (128 MiB by default) would answer a bare 413 without our error body or
  // X-Request-Id, and below the 500 MB upload limit. Every body is read by our own readers,
  // which enforce the documented limits (json-body.ts, multipart.ts); Bun's cap is lifted.
  app.listen({
    hostname: cfg.host,
    port: cfg.port,
    reusePort: false,
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    // A socket quiet this long is closed: above the body readers' stall timeout, so a stalled
    // body they read gets their 408 first (Bun counts idle time in 4 s ticks, so the margin is
    // two ticks); a body nobody reads (refused before it was read) ends here. Authenticated
    // writes lift it once their body has arrived (http/app.ts).
    idleTimeout: cfg.requestBodyTimeoutSeconds + 8,
  });
  const url = `http://${cfg.host.includes(":") ? `[${cfg.host}]` : cfg.host}:${app.server!.port}`;
  if (!cfg.publicBaseUrl) cfg.baseUrl = url;
  return url;
}

export async function startServer(cfg: Config, opts: { bootstrap: boolean }): Promise<RunningServer> {
  const log = createLogger(cfg.logLevel);
  const opened = await openApp(cfg, log, opts);
  const { app, svc } = opened;
  const url = listen(app, cfg);
  await opened.startWorker();

  log.info("courseforge listening", {
    address: url,
    public_base_url: cfg.baseUrl,
    data_dir: cfg.dataDir,
    database: svc.sql.dialect,
    llm: svc.llm.describe(),
    ...svc.engines,
  });

  return {
    url,
    svc,
    async stop() {
      // Stop accepting; let in-flight requests finish until the deadline, then cut what is left.
      // Running jobs are asked to stop at their next commit point and handed back to the queue.
      const draining = app.stop(false);
      const drained = Promise.race([draining.then(() => true), Bun.sleep(cfg.shutdownGraceMs).then(() => false)]).then(
        (done) => (done ? undefined : app.stop(true)),
      );
      await opened.close(cfg.shutdownGraceMs, drained);
    },
  };
}
