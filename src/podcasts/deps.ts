/** What the podcast domain needs from the server, its speech engines included (built once at start). */
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import type { Llm } from "../llm/types.ts";
import type { Logger } from "../log.ts";
import type { MediaUrls } from "../media/signed-url.ts";
import type { TtsEngines } from "./tts/registry.ts";

export type PodcastConfig = Pick<
  Config,
  | "dataDir"
  | "blobDir"
  | "baseUrl"
  | "mediaUrlTtlSeconds"
  | "modelsDir"
  | "piperHostVoice"
  | "piperGuestVoice"
  | "podcastBitrateKbps"
  | "podcastConcurrency"
  | "ttsProvider"
>;

export interface PodcastDeps {
  cfg: PodcastConfig;
  sql: Sql;
  llm: Llm;
  log: Logger;
  tts: TtsEngines;
  media: MediaUrls;
  clock: Clock;
}
