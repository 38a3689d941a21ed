/** In-process Services over a fresh data directory, for domain functions called without HTTP. */
import type { Database } from "bun:sqlite";
import { systemClock } from "../../src/clock.ts";
import { loadConfig } from "../../src/config.ts";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { localBus } from "../../src/events/bus.ts";
import { createExtractionPool } from "../../src/ingest/index.ts";
import { createLlm } from "../../src/llm/create.ts";
import { createLogger } from "../../src/log.ts";
import { createMediaUrls } from "../../src/media/signed-url.ts";
import { createSigner } from "../../src/media/signer.ts";
import { createEmbedder } from "../../src/retrieval/index.ts";
import type { Services } from "../../src/services.ts";
import { webhookSendOptions } from "../../src/webhooks/send.ts";
import { engineThread } from "../helpers/engine-thread.ts";
import { tempDir } from "../helpers/server.ts";

export async function localServices(
  env: Record<string, string> = {},
): Promise<Services & { dataDir: string; sqlite: Database }> {
  const dataDir = tempDir("cf-materials-");
  const cfg = loadConfig({
    DATA_DIR: dataDir,
    LLM_PROVIDER: "extractive",
    EMBEDDER: "builtin",
    LLM_MAX_RETRIES: "0",
    ...env,
  });
  const { sqlite } = await openDb(dataDir);
  const llm = await createLlm(cfg, { retryDelayMs: 1, builds: engineThread });
  const signer = createSigner("local-services");
  return {
    cfg,
    sqlite,
    sql: sqliteSql(sqlite),
    databaseAddress: sqlite.filename,
    node: "local-services",
    engineThread,
    events: localBus(sqlite),
    log: createLogger("error"),
    llm,
    embedder: createEmbedder(cfg),
    extraction: createExtractionPool(cfg),
    media: createMediaUrls(signer, systemClock),
    feedSigner: signer,
    clock: systemClock,
    webhookSend: webhookSendOptions(cfg, systemClock),
    engines: {},
    dataDir,
  };
}
