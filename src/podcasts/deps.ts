/** What the podcast domain needs from the server, and its speech engines (one set per configuration). */
import type { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import type { Llm } from "../llm/types.ts";
import type { Logger } from "../log.ts";
import { createTtsEngines, type TtsEngines } from "./tts/registry.ts";

export type PodcastConfig = Pick<
  Config,
  | "dataDir"
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
  sqlite: Database;
  llm: Llm;
  log: Logger;
}

const enginesByConfig = new WeakMap<PodcastConfig, TtsEngines>();

/** Shared by the routes and the job handler, so loaded Piper voices are loaded once. */
export function ttsEnginesFor(cfg: PodcastConfig): TtsEngines {
  let engines = enginesByConfig.get(cfg);
  if (!engines) {
    engines = createTtsEngines(cfg);
    enginesByConfig.set(cfg, engines);
  }
  return engines;
}
