/** Builds the services, opens the database, and serves HTTP until stopped. */
import type { Config } from "./config.ts";
import { openDb } from "./db/index.ts";
import { createApp } from "./http/app.ts";
import { createLlm } from "./llm/create.ts";
import { JobWorker } from "./jobs/queue.ts";
import { jobHandlers } from "./jobs/registry.ts";
import { createLogger } from "./log.ts";
import { loadOrCreateSecret } from "./media/secret.ts";
import { setMediaSigningSecret } from "./media/signed-url.ts";
import type { Services } from "./services.ts";
import { createKey, hasAnyKey } from "./tenants/keys.ts";

export interface RunningServer {
  url: string;
  svc: Services;
  stop(): Promise<void>;
}

export async function startServer(cfg: Config, opts: { bootstrap: boolean }): Promise<RunningServer> {
  const log = createLogger(cfg.logLevel);
  const { db, sqlite } = await openDb(cfg.dataDir);
  setMediaSigningSecret(cfg.mediaSigningSecret ?? loadOrCreateSecret(cfg.dataDir, "media-signing.key"));

  if (opts.bootstrap && !hasAnyKey(db)) {
    const { key } = createKey(db, { tenant: "default", env: "test" });
    // Printed once, in plain text, so a new user can copy it; it is never logged again.
    process.stdout.write(`\nCreated tenant "default" with a test API key (shown only now):\n\n  ${key}\n\n`);
  }

  const llm = await createLlm(cfg);
  const svc: Services = { cfg, db, sqlite, log, llm };
  const app = createApp(svc);
  app.listen({ hostname: cfg.host, port: cfg.port });
  const port = app.server!.port;
  if (!cfg.publicBaseUrl) cfg.baseUrl = `http://${cfg.host.includes(":") ? `[${cfg.host}]` : cfg.host}:${port}`;
  const url = `http://${cfg.host.includes(":") ? `[${cfg.host}]` : cfg.host}:${port}`;

  const worker = new JobWorker(sqlite, log, jobHandlers(svc), {
    concurrency: cfg.jobConcurrency,
    leaseSeconds: cfg.jobLeaseSeconds,
  });
  worker.start();

  log.info("courseforge listening", {
    address: url,
    public_base_url: cfg.baseUrl,
    data_dir: cfg.dataDir,
    llm: llm.describe(),
    embedder: "builtin",
    tts: "espeak",
  });

  return {
    url,
    svc,
    async stop() {
      await app.stop();
      await worker.stop(cfg.shutdownGraceMs);
      sqlite.close();
    },
  };
}
