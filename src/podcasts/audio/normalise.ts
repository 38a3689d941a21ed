/**
 * Loudness normalisation of an episode before encoding: one gain that brings its integrated
 * loudness to -16 LUFS (the level podcast platforms play mono and stereo speech at), and a
 * look-ahead peak limiter so that the boost never clips. Speech engines differ by several LU
 * (eSpeak NG speaks at about -20.5 LUFS with peaks near -2.5 dBFS), so without this every engine,
 * and every voice, would play at a different volume.
 */
import { yieldToEventLoop } from "../yield.ts";
import { LoudnessMeter } from "./loudness.ts";

export const TARGET_LUFS = -16;
/**
 * Sample peak ceiling: below 0 dBFS with room for the overshoot MP3 encoding adds, which reaches
 * about 1.6 dB on speech at 48 kbps (a TraceMonkey chapter's episode limited to -1.5 dBFS decoded
 * at +0.08 dBFS, clipped); -2 dBFS is also what AES TD1008 advises for low-bitrate lossy codecs.
 */
export const PEAK_CEILING_DBFS = -2;
/** A quiet recording is not raised by more than this, so that its noise floor is not too. */
const MAX_GAIN_DB = 24;
/** The limiter starts turning the gain down this long before a peak, so the reduction is not a click. */
const LOOKAHEAD_SECONDS = 0.005;
/** And lets it return with this time constant, slow enough not to modulate the voice audibly. */
const RELEASE_SECONDS = 0.08;
/** Limiter runs before settling for the loudness reached; peaky speech under the -2 dBFS ceiling takes up to four. */
const MAX_PASSES = 4;
/** About 1.5 s of 22.05 kHz audio per slice, between which the event loop runs. */
const SLICE = 1 << 15;

export interface Normalised {
  samples: Float32Array;
  /** Integrated loudness before and after; -Infinity for silence. */
  inputLufs: number;
  outputLufs: number;
  /** The gain applied before limiting. */
  gainDb: number;
}

export async function measureLoudness(samples: Float32Array, sampleRate: number): Promise<number> {
  const meter = new LoudnessMeter(sampleRate);
  for (let start = 0; start < samples.length; start += SLICE) {
    meter.add(samples.subarray(start, start + SLICE));
    await yieldToEventLoop();
  }
  return meter.integrated();
}

/**
 * `samples` at TARGET_LUFS, peaks limited to PEAK_CEILING_DBFS. Limiting takes some loudness back
 * (about 1 LU on eSpeak NG speech), so the gain is raised by what is still missing and the limiter
 * run again, until the result is within 0.2 LU of the target.
 */
export async function normaliseLoudness(samples: Float32Array, sampleRate: number): Promise<Normalised> {
  const inputLufs = await measureLoudness(samples, sampleRate);
  // Silence (nothing above the absolute gate) has no loudness to correct.
  if (!Number.isFinite(inputLufs)) return { samples, inputLufs, outputLufs: inputLufs, gainDb: 0 };
  let gainDb = Math.min(MAX_GAIN_DB, TARGET_LUFS - inputLufs);
  for (let pass = 1; ; pass++) {
    const out = await limitedGain(samples, sampleRate, 10 ** (gainDb / 20));
    const outputLufs = await measureLoudness(out, sampleRate);
    const missing = TARGET_LUFS - outputLufs;
    if (Math.abs(missing) < 0.2 || gainDb >= MAX_GAIN_DB || pass === MAX_PASSES)
      return { samples: out, inputLufs, outputLufs, gainDb };
    gainDb = Math.min(MAX_GAIN_DB, gainDb + missing);
  }
}

/**
 * Multiplies by `gain`, turning it down wherever the result would pass the ceiling. The gain curve
 * is the largest one that (1) keeps every sample under the ceiling, (2) falls at most linearly over
 * the look-ahead into a peak and (3) recovers exponentially after it: a backward pass applies (2),
 * a forward pass (3); each only ever lowers the curve, so (1) holds throughout.
 */
async function limitedGain(samples: Float32Array, sampleRate: number, gain: number): Promise<Float32Array> {
  const ceiling = 10 ** (PEAK_CEILING_DBFS / 20);
  const curve = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const peak = Math.abs((samples[i] ?? 0) * gain);
    curve[i] = peak > ceiling ? ceiling / peak : 1;
  }
  await yieldToEventLoop();

  const attackStep = 1 / Math.max(1, Math.round(LOOKAHEAD_SECONDS * sampleRate));
  for (let end = samples.length; end > 0; end -= SLICE) {
    for (let i = end - 1; i >= Math.max(0, end - SLICE); i--) {
      curve[i] = Math.min(curve[i] ?? 1, (curve[i + 1] ?? 1) + attackStep);
    }
    await yieldToEventLoop();
  }

  const release = Math.exp(-1 / (RELEASE_SECONDS * sampleRate));
  let g = 1;
  // The curve is not needed after this pass: it becomes the output.
  for (let start = 0; start < samples.length; start += SLICE) {
    const stop = Math.min(samples.length, start + SLICE);
    for (let i = start; i < stop; i++) {
      g = Math.min(curve[i] ?? 1, 1 - (1 - g) * release);
      curve[i] = (samples[i] ?? 0) * gain * g;
    }
    await yieldToEventLoop();
  }
  return curve;
}
