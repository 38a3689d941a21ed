/**
 * The composition root: every provider and shared piece is built here once, at start, and handed
 * down explicitly: the database seam and its event bus, the extractive engine's thread, the model, the embedder, the extraction pool, the speech engines, the signers (media URLs, podcast
 * feed tokens), the webhook sender's options and the clock. Domain functions take only the pieces they use; src/http and the job
 * registration (src/job-handlers.ts) see the whole.
 */
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Store } from "./db/open.ts";
import type { EngineWork } from "./engine-thread.ts";
import { createExtractionPool } from "./ingest/index.ts";
import { createLlm } from "./llm/create.ts";
import type { Logger } from "./log.ts";
import { loadOrCreateSecret } from "./media/secret.ts";
import { createMediaUrls } from "./media/signed-url.ts";
import { createSigner } from "./media/signer.ts";
import { chooseTtsEngine, createTtsEngines, type TtsEngines } from "./podcasts/tts/registry.ts";
import { createEmbedder } from "./retrieval/embedders/create.ts";
import type { Services } from "./services.ts";
import { threadCalls } from "./thread-calls.ts";
import { webhookSendOptions } from "./webhooks/send.ts";

export interface AppServices extends Services {
  /** Piper and eSpeak NG, each built once, so loaded voices stay loaded for routes and jobs. */
  tts: TtsEngines;
}

export async function composeServices(
  cfg: Config,
  store: Pick<Store, "sql" | "events" | "address"> & { node: string },
  log: Logger,
  clock: Clock = systemClock,
): Promise<AppServices> {
  // First: a WEBHOOK_CA_FILE that cannot be read stops the start before the engines are built.
  const webhookSend = webhookSendOptions(cfg, clock);
  // Started on its first call; build.ts bundles the entry beside this file.
  const engineThread = threadCalls<EngineWork>(new URL("./engine-thread.ts", import.meta.url));
  const llm = await createLlm(cfg, { clock, builds: engineThread });
  const embedder = createEmbedder(cfg);
  const tts = createTtsEngines(cfg);
  const speaker = await chooseTtsEngine(tts, null, null, cfg.ttsProvider);
  const mediaSecret = cfg.mediaSigningSecret ?? loadOrCreateSecret(cfg.dataDir, "media-signing.key");
  return {
    cfg,
    sql: store.sql,
    events: store.events,
    databaseAddress: store.address,
    node: store.node,
    engineThread,
    log,
    llm,
    embedder,
    extraction: createExtractionPool(cfg),
    tts,
    clock,
    webhookSend,
    media: createMediaUrls(createSigner(mediaSecret), clock),
    feedSigner: createSigner(cfg.podcastFeedSecret ?? loadOrCreateSecret(cfg.dataDir, "podcast-feed.key")),
    engines: { tts: speaker.name, embedder: embedder.describe() },
  };
}
