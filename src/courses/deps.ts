/** What course generation needs from the server, by step: each function takes only its part. */
import type { Config } from "../config.ts";
import type { Llm } from "../llm/types.ts";
import type { Logger } from "../log.ts";
import type { RetrievalDeps } from "../retrieval/index.ts";
import type { CourseThread } from "./in-thread.ts";

/** Retrying a model step (GENERATION_RETRIES), with a warning per retry. */
export interface RetryDeps {
  cfg: Pick<Config, "generationRetries" | "generationRetryDelayMs">;
  log: Logger;
}

/** The optional SearXNG web search. */
export interface WebSearchDeps {
  cfg: Pick<Config, "searxngUrl" | "outboundAllow">;
  log: Logger;
}

/** Planning and writing: the model, retries, the learner's indexed sources and the web. */
export interface WritingDeps extends RetrievalDeps {
  /** The database's address, for the planning reads in the extractive engine's thread. */
  databaseAddress: string;
  /** The reads of whole sources, and a chapter's indexing, in that thread. */
  engineThread: CourseThread;
  llm: Llm;
  log: Logger;
  cfg: RetryDeps["cfg"] & WebSearchDeps["cfg"] & Pick<Config, "llmFallback">;
}
