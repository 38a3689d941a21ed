/** eSpeak NG, the built-in voice: always present, formant synthesis, two clearly different speakers. */
import pkg from "@echogarden/espeak-ng-emscripten/package.json" with { type: "json" };
import { yieldToEventLoop } from "../yield.ts";
import type { SynthesizedAudio, TtsAvailability, TtsEngine } from "./engine.ts";
import { ESPEAK_SAMPLE_RATE, EspeakRuntime } from "./espeak-wasm.ts";
import { splitSentences } from "./text.ts";

/** A conversational pace: eSpeak's default of 175 words per minute sounds hurried in dialogue. */
const RATE_WPM = 165;
const PITCH = 50;

/** The pause eSpeak itself makes between sentences at this rate, restored between our per-sentence calls. */
const SENTENCE_PAUSE_SECONDS = 0.32;

/** Host: a lower male variant; guest: a female variant (median pitch about 105 Hz vs 210 Hz). */
const VOICES = { host: "en-us+m3", guest: "en-us+f3" } as const;

export class EspeakEngine implements TtsEngine {
  readonly name = "espeak" as const;

  /** `runtime` is shared with Piper's phonemizer when both engines are built together. */
  constructor(private readonly runtime = new EspeakRuntime()) {}

  /** Built into the server: nothing to install. */
  async installed(): Promise<TtsAvailability> {
    return { ok: true };
  }

  async available(): Promise<TtsAvailability> {
    try {
      await this.runtime.load();
      return { ok: true };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return {
        ok: false,
        reason: `eSpeak NG failed to load (${why}); reinstall the package @echogarden/espeak-ng-emscripten (npm ci)`,
      };
    }
  }

  voices() {
    return { ...VOICES };
  }

  async synthesize(text: string, voice: string): Promise<SynthesizedAudio> {
    const parts: Int16Array[] = [];
    const pause = Math.round(SENTENCE_PAUSE_SECONDS * ESPEAK_SAMPLE_RATE);
    // One sentence per call, yielding in between, because each call holds the thread.
    for (const sentence of splitSentences(text)) {
      parts.push(await this.runtime.synthesize(sentence, { voice, rate: RATE_WPM, pitch: PITCH }));
      await yieldToEventLoop();
    }
    const samples = new Int16Array(parts.reduce((n, p) => n + p.length, 0) + pause * Math.max(0, parts.length - 1));
    let offset = 0;
    parts.forEach((part, i) => {
      if (i > 0) offset += pause;
      samples.set(part, offset);
      offset += part.length;
    });
    return { samples, sampleRate: ESPEAK_SAMPLE_RATE };
  }

  async fingerprint(voice: string): Promise<string> {
    return `espeak-ng-emscripten@${pkg.version};rate=${RATE_WPM};pitch=${PITCH};voice=${voice}`;
  }
}
