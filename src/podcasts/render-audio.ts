/** Speaks a script: each turn in its speaker's voice (from the cache when already synthesized), then one MP3. */
import { type EncodedEpisode, encodeEpisode } from "./audio/episode.ts";
import type { Pcm } from "./audio/pcm.ts";
import { TurnAudioCache } from "./audio/turn-cache.ts";
import type { TtsEngine } from "./tts/engine.ts";

export interface ScriptTurn {
  speaker: "host" | "guest";
  text: string;
}

export interface RenderOptions {
  cache: TurnAudioCache;
  bitrateKbps?: number;
  /** Checked between turns: a shutdown stops the work at the next turn (synthesized turns stay cached). */
  signal?: AbortSignal;
}

export interface RenderedEpisode extends EncodedEpisode {
  /** Turns synthesized now, and turns taken from the cache. */
  synthesized: number;
  cached: number;
  /** Cache entries this episode used; drop them once the episode is stored. */
  cacheKeys: string[];
}

export async function renderEpisodeAudio(
  engine: TtsEngine,
  turns: readonly ScriptTurn[],
  opts: RenderOptions,
): Promise<RenderedEpisode> {
  const voices = engine.voices();
  const audio: Pcm[] = [];
  const cacheKeys: string[] = [];
  let synthesized = 0;
  for (const turn of turns) {
    opts.signal?.throwIfAborted();
    const voice = voices[turn.speaker];
    const key = TurnAudioCache.key(engine.name, await engine.fingerprint(voice), turn.text);
    cacheKeys.push(key);
    let pcm = await opts.cache.get(key);
    if (!pcm) {
      pcm = await engine.synthesize(turn.text, voice);
      await opts.cache.put(key, pcm);
      synthesized++;
    }
    audio.push(pcm);
  }
  opts.signal?.throwIfAborted();
  const encoded = await encodeEpisode(audio, { bitrateKbps: opts.bitrateKbps });
  return { ...encoded, synthesized, cached: turns.length - synthesized, cacheKeys };
}
