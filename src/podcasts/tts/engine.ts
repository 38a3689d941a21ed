/** The speech engines behind podcast episodes, and what each one promises. */

export type TtsEngineName = "piper" | "espeak";

export interface TtsAvailability {
  ok: boolean;
  /** When not ok: what is missing and what to install or place, in one sentence. */
  reason?: string;
  /** When not ok: the same for programs (files missing, where they go, the settings naming them). */
  details?: Record<string, unknown>;
}

export interface SynthesizedAudio {
  /** Mono PCM; Float32 in [-1, 1] or Int16. */
  samples: Float32Array | Int16Array;
  sampleRate: number;
}

export interface TtsEngine {
  name: TtsEngineName;
  /**
   * Whether what the operator must install is there (voice files), without loading anything: cheap
   * enough for a request to check before it accepts work for this engine.
   */
  installed(): Promise<TtsAvailability>;
  /** installed(), and the engine loads: checked by the job before it speaks. */
  available(): Promise<TtsAvailability>;
  /** The voice of each podcast speaker; always two different voices. */
  voices(): { host: string; guest: string };
  synthesize(text: string, voice: string): Promise<SynthesizedAudio>;
  /**
   * Changes whenever the same text in the same voice would sound different (engine build, speaking
   * rate, a replaced voice file), so cached audio from before is not reused.
   */
  fingerprint(voice: string): Promise<string>;
}
