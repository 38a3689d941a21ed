/**
 * Piper neural voices: `<voice>.onnx` + `<voice>.onnx.json` under MODELS_DIR/piper, run with
 * onnxruntime-node. The runtime is imported on first use so an idle server does not load it.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { InferenceSession } from "onnxruntime-node";
import { loadOnnxRuntime } from "../../onnx/runtime.ts";
import type { SynthesizedAudio, TtsAvailability, TtsEngine } from "./engine.ts";
import { EspeakRuntime } from "./espeak-wasm.ts";
import { phonemizeForPiper } from "./piper-phonemize.ts";
import { type PiperVoiceConfig, phonemesToIds, readPiperVoiceConfig } from "./piper-voice.ts";

/** Silence Piper puts between sentences. */
const SENTENCE_SILENCE_SECONDS = 0.2;

export interface PiperOptions {
  /** Folder holding the voice files (MODELS_DIR/piper). */
  voicesDir: string;
  hostVoice: string;
  guestVoice: string;
}

interface LoadedVoice {
  config: PiperVoiceConfig;
  session: InferenceSession;
  speakerId: number;
}

/** A voice is a file name without `.onnx`, optionally `:speaker` for multi-speaker models. */
function parseVoice(voice: string): { file: string; speaker: string | null } {
  const at = voice.lastIndexOf(":");
  const file = at < 0 ? voice : voice.slice(0, at);
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(file)) throw new Error(`invalid Piper voice name "${voice}"`);
  return { file, speaker: at < 0 ? null : voice.slice(at + 1) };
}

function resolveSpeaker(config: PiperVoiceConfig, speaker: string | null, voice: string): number {
  if (speaker === null) return 0;
  const id = config.speakerIdMap[speaker] ?? (/^\d+$/.test(speaker) ? Number(speaker) : undefined);
  if (id === undefined || id >= config.numSpeakers)
    throw new Error(`Piper voice "${voice}" has no speaker "${speaker}"`);
  return id;
}

/** Peak-normalises like Piper, so quiet models are not played back quietly. */
function normalise(audio: Float32Array): Float32Array {
  let peak = 0.01;
  for (const v of audio) peak = Math.max(peak, Math.abs(v));
  const out = new Float32Array(audio.length);
  for (let i = 0; i < audio.length; i++) out[i] = Math.max(-1, Math.min(1, (audio[i] ?? 0) / peak));
  return out;
}

export class PiperEngine implements TtsEngine {
  readonly name = "piper" as const;
  private readonly loaded = new Map<string, Promise<LoadedVoice>>();

  constructor(
    private readonly opts: PiperOptions,
    /** Piper's phonemes come from eSpeak NG; shared with the eSpeak engine when both are built together. */
    private readonly espeak = new EspeakRuntime(),
  ) {}

  private paths(voice: string) {
    const model = join(this.opts.voicesDir, `${parseVoice(voice).file}.onnx`);
    return { model, config: `${model}.json` };
  }

  async installed(): Promise<TtsAvailability> {
    const { hostVoice, guestVoice, voicesDir } = this.opts;
    const settings = {
      voices_dir: voicesDir,
      host_voice: hostVoice,
      guest_voice: guestVoice,
      settings: ["MODELS_DIR", "PIPER_HOST_VOICE", "PIPER_GUEST_VOICE"],
    };
    if (hostVoice === guestVoice) {
      return {
        ok: false,
        reason: "PIPER_HOST_VOICE and PIPER_GUEST_VOICE name the same voice; choose two different voices",
        details: settings,
      };
    }
    const missing: string[] = [];
    for (const voice of [hostVoice, guestVoice]) {
      let paths: ReturnType<typeof this.paths>;
      try {
        paths = this.paths(voice);
      } catch (err) {
        return { ok: false, reason: (err as Error).message, details: settings };
      }
      for (const path of [paths.model, paths.config]) {
        if (!(await stat(path).catch(() => null))?.isFile()) missing.push(path.slice(voicesDir.length + 1));
      }
    }
    if (missing.length > 0) {
      return {
        ok: false,
        reason:
          `Piper voice files missing: place ${missing.join(", ")} in ${voicesDir} ` +
          `(MODELS_DIR/piper; the voices are named by PIPER_HOST_VOICE=${hostVoice} and PIPER_GUEST_VOICE=${guestVoice}; see models/README.md)`,
        details: { ...settings, missing },
      };
    }
    try {
      for (const voice of [hostVoice, guestVoice]) {
        const config = await readPiperVoiceConfig(this.paths(voice).config);
        resolveSpeaker(config, parseVoice(voice).speaker, voice);
      }
    } catch (err) {
      return { ok: false, reason: `Piper voice unusable: ${(err as Error).message}`, details: settings };
    }
    return { ok: true };
  }

  async available(): Promise<TtsAvailability> {
    const installed = await this.installed();
    if (!installed.ok) return installed;
    try {
      await loadOnnxRuntime();
    } catch (err) {
      return {
        ok: false,
        reason:
          `onnxruntime-node cannot be loaded (${(err as Error).message}); install it with npm ci, and for the ` +
          "compiled executable put the folder holding libonnxruntime.so.1 (node_modules/onnxruntime-node/bin/napi-v6/linux/x64) on LD_LIBRARY_PATH",
      };
    }
    return { ok: true };
  }

  voices() {
    return { host: this.opts.hostVoice, guest: this.opts.guestVoice };
  }

  private load(voice: string): Promise<LoadedVoice> {
    let pending = this.loaded.get(voice);
    if (!pending) {
      pending = (async () => {
        const paths = this.paths(voice);
        const config = await readPiperVoiceConfig(paths.config);
        const speakerId = resolveSpeaker(config, parseVoice(voice).speaker, voice);
        const ort = await loadOnnxRuntime();
        const session = await ort.InferenceSession.create(paths.model);
        return { config, session, speakerId };
      })();
      pending.catch(() => this.loaded.delete(voice));
      this.loaded.set(voice, pending);
    }
    return pending;
  }

  async synthesize(text: string, voice: string): Promise<SynthesizedAudio> {
    const { config, session, speakerId } = await this.load(voice);
    const { Tensor } = await loadOnnxRuntime();
    const silence = new Float32Array(Math.round(SENTENCE_SILENCE_SECONDS * config.sampleRate));
    const parts: Float32Array[] = [];
    for (const phonemes of await phonemizeForPiper(this.espeak, text, config.espeakVoice)) {
      const ids = phonemesToIds(phonemes, config.phonemeIdMap);
      const feeds: Record<string, InstanceType<typeof Tensor>> = {
        input: new Tensor("int64", BigInt64Array.from(ids, BigInt), [1, ids.length]),
        input_lengths: new Tensor("int64", BigInt64Array.of(BigInt(ids.length)), [1]),
        scales: new Tensor("float32", Float32Array.of(config.noiseScale, config.lengthScale, config.noiseW), [3]),
      };
      if (session.inputNames.includes("sid")) feeds.sid = new Tensor("int64", BigInt64Array.of(BigInt(speakerId)), [1]);
      const results = await session.run(feeds);
      const output = results[session.outputNames[0] ?? "output"];
      if (!output || !(output.data instanceof Float32Array))
        throw new Error(`Piper voice "${voice}" returned no float audio`);
      parts.push(normalise(output.data), silence);
    }
    const samples = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const part of parts) {
      samples.set(part, offset);
      offset += part.length;
    }
    return { samples, sampleRate: config.sampleRate };
  }

  async fingerprint(voice: string): Promise<string> {
    const paths = this.paths(voice);
    const [model, config] = await Promise.all([stat(paths.model), stat(paths.config)]);
    return `piper;voice=${voice};model=${model.size}@${model.mtimeMs};config=${config.size}@${config.mtimeMs}`;
  }
}
