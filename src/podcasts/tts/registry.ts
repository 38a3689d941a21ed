/** Which engine speaks an episode: names and aliases accepted by the API, and the default choice. */

import { join } from "node:path";
import { AppError } from "../../errors.ts";
import type { TtsEngine, TtsEngineName } from "./engine.ts";
import { EspeakEngine } from "./espeak.ts";
import { EspeakRuntime } from "./espeak-wasm.ts";
import { PiperEngine } from "./piper.ts";

/** `provider_a`/`provider_b` are the interface's names for the two engines. */
const PROVIDER_NAMES: Record<string, TtsEngineName> = {
  piper: "piper",
  espeak: "espeak",
  provider_a: "piper",
  provider_b: "espeak",
};

export const TTS_PROVIDER_VALUES = Object.keys(PROVIDER_NAMES);

/** The engine a `tts_provider` value names; 422 for anything else. */
export function parseTtsProvider(value: string): TtsEngineName {
  const name = PROVIDER_NAMES[value];
  if (!name) {
    throw new AppError("VALIDATION_ERROR", `Unknown tts_provider "${value}"`, {
      field: "tts_provider",
      allowed: TTS_PROVIDER_VALUES,
    });
  }
  return name;
}

export type TtsEngines = Record<TtsEngineName, TtsEngine>;

export interface TtsSettings {
  modelsDir: string;
  piperHostVoice: string;
  piperGuestVoice: string;
}

/** Both engines, over one eSpeak NG instance (Piper phonemizes with it). */
export function createTtsEngines(cfg: TtsSettings): TtsEngines {
  const espeak = new EspeakRuntime();
  return {
    piper: new PiperEngine(
      {
        voicesDir: join(cfg.modelsDir, "piper"),
        hostVoice: cfg.piperHostVoice,
        guestVoice: cfg.piperGuestVoice,
      },
      espeak,
    ),
    espeak: new EspeakEngine(espeak),
  };
}

/**
 * The engine for an episode: the request's, else the tenant's, else the server's TTS_PROVIDER,
 * else Piper when its voices are in place, else eSpeak NG (always there; not loaded here, so a
 * request does not pay for loading it). A named engine is returned even when unavailable, so the
 * episode can fail with the reason rather than silently speak with another voice.
 */
export async function chooseTtsEngine(
  engines: TtsEngines,
  requested: TtsEngineName | null,
  tenantDefault: TtsEngineName | null,
  serverDefault: TtsEngineName | "auto",
): Promise<TtsEngine> {
  const named = requested ?? tenantDefault ?? (serverDefault === "auto" ? null : serverDefault);
  if (named) return engines[named];
  return (await engines.piper.available()).ok ? engines.piper : engines.espeak;
}
