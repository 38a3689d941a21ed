/**
 * An eSpeak NG instance: its Emscripten build (compiled to plain JavaScript,
 * voices and dictionaries in a 24 MB data file). The data file is imported as a file asset so that
 * `bun build --compile` embeds it in the executable; the package's own loader would look for it
 * beside the script, which does not exist inside a compiled binary.
 *
 * Loaded on first use: the data file and the synthesizer's heap cost ~60 MB that an idle server
 * should not pay. The server builds one (createTtsEngines) and shares it between eSpeak NG and
 * Piper's phonemizer.
 */
import type { ESpeakNGModule, ESpeakNGWorker } from "@echogarden/espeak-ng-emscripten";
import { embeddedBytes } from "../../embedded-file.ts";

export const ESPEAK_SAMPLE_RATE = 22050;

export interface EspeakParams {
  /** eSpeak voice name with an optional variant, e.g. `en-us+f3`. */
  voice: string;
  /** Words per minute. */
  rate: number;
  /** 0-99, 50 is the voice's own pitch. */
  pitch: number;
}

interface Instance {
  module: ESpeakNGModule;
  worker: ESpeakNGWorker;
}

/**
 * The synthesizer reads its input as SSML with `[[...]]` phoneme escapes (that is how the build
 * calls espeak_Synth), so markup characters and phoneme brackets in plain text must be neutralised.
 */
function asPlainSsml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("[[", "[ [");
}

function setVoice(worker: ESpeakNGWorker, voice: string): void {
  if (worker.set_voice(voice) !== 0) throw new Error(`eSpeak NG has no voice "${voice}"`);
}

export class EspeakRuntime {
  private loading: Promise<Instance> | null = null;

  private instance(): Promise<Instance> {
    if (!this.loading) {
      const loading = (async () => {
        const { initEspeak, espeakDataPath } = await import("./espeak-assets.ts");
        const data = new Uint8Array(await embeddedBytes(espeakDataPath)).buffer;
        const module = await initEspeak({ getPreloadedPackage: () => data });
        return { module, worker: new module.eSpeakNGWorker() };
      })();
      // A failed load is tried again on the next use.
      loading.catch(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  /** Loads the synthesizer, so that failures surface in an availability check rather than mid-episode. */
  async load(): Promise<void> {
    await this.instance();
  }

  /**
   * Synthesizes one piece of text at 22 050 Hz. The call is synchronous inside the emulated
   * synthesizer, so callers pass sentence-sized pieces to keep the event loop responsive.
   */
  async synthesize(text: string, params: EspeakParams): Promise<Int16Array> {
    const { worker } = await this.instance();
    setVoice(worker, params.voice);
    worker.set_rate(params.rate);
    worker.set_pitch(params.pitch);
    const chunks: Int16Array[] = [];
    let total = 0;
    worker.synthesize(asPlainSsml(text), (samples) => {
      if (samples.length > 0) {
        chunks.push(samples);
        total += samples.length;
      }
      return false;
    });
    const out = new Int16Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }

  /**
   * IPA phonemes of a text, clause after clause separated by " | ", phonemes within a word separated
   * by "_" (the build's fixed separator).
   */
  async phonemes(text: string, voice: string): Promise<string> {
    const { module, worker } = await this.instance();
    setVoice(worker, voice);
    const { ptr } = worker.convert_to_phonemes(text, true);
    try {
      const heap = module.HEAPU8;
      let end = ptr;
      while (heap[end] !== 0) end++;
      return new TextDecoder().decode(heap.subarray(ptr, end));
    } finally {
      module._free(ptr);
    }
  }
}
