/**
 * The shared providers, built once at start by the composition root (compose.ts) and passed down
 * explicitly. Domain modules take the pieces they need as arguments; only src/http and the job
 * registration see the whole.
 */
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Sql } from "./db/sql.ts";
import type { EngineWork } from "./engine-thread.ts";
import type { EventBus } from "./events/bus.ts";
import type { ExtractionPool } from "./ingest/index.ts";
import type { Llm } from "./llm/types.ts";
import type { Logger } from "./log.ts";
import type { MediaUrls } from "./media/signed-url.ts";
import type { Signer } from "./media/signer.ts";
import type { Embedder } from "./retrieval/embedders/types.ts";
import type { Calls } from "./thread-calls.ts";
import type { SendOptions } from "./webhooks/send.ts";

export interface Services {
  cfg: Config;
  /**
   * The two-engine seam (src/db/sql.ts) every owner is handed: built once at start (src/db/open.ts),
   * PostgreSQL's when DATABASE_URL is set, else SQLite's over the server's one connection.
   */
  sql: Sql;
  /** The database's address (the SQLite file or the PostgreSQL URL) for worker threads and extraction processes. */
  databaseAddress: string;
  /** This node's id, kept by the data-directory lock (src/db/data-dir-lock.ts): one per DATA_DIR. */
  node: string;
  /** Announcements of queued and ended jobs (ids only), heard by the worker and by followers: in process on SQLite, LISTEN/NOTIFY on PostgreSQL. */
  events: EventBus;
  log: Logger;
  /** The extractive engine's thread (engine-thread.ts): its builders and the reads of whole sources. */
  engineThread: Calls<EngineWork>;
  /** The generation engine chosen at start (Ollama, OpenAI-compatible or extractive). */
  llm: Llm;
  /** The embedder chosen at start (EMBEDDER); every new chunk vector is made by it. */
  embedder: Embedder;
  /** The extraction processes every uploaded file and fetched page is parsed in (INGEST_WORKERS). */
  extraction: ExtractionPool;
  /** Signs and checks media URLs (MEDIA_SIGNING_SECRET or the data directory's own key). */
  media: MediaUrls;
  /** Signs podcast feed tokens (the data directory's podcast-feed.key). */
  feedSigner: Signer;
  clock: Clock;
  /** How webhook deliveries are sent (timeout, allow-list, WEBHOOK_CA_FILE's roots), read once at start. */
  webhookSend: SendOptions;
  /** What each pluggable engine resolved to at start (embedder, speech), for logs and health details. */
  engines: Record<string, unknown>;
}
