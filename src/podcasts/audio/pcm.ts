/** Mono PCM helpers: format conversion, resampling and joining turns with pauses. */

export interface Pcm {
  samples: Float32Array | Int16Array;
  sampleRate: number;
}

function toFloat32(samples: Float32Array | Int16Array): Float32Array {
  if (samples instanceof Float32Array) return samples;
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = (samples[i] ?? 0) / 32768;
  return out;
}

export function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i] ?? 0));
    out[i] = v < 0 ? Math.round(v * 32768) : Math.round(v * 32767);
  }
  return out;
}

/**
 * Linear-interpolation resampling. Hand-written because it is only needed when two Piper voices of
 * different rates meet in one episode (16 kHz "low" voices against 22.05 kHz ones), where its
 * slight high-frequency loss is inaudible in speech; a WASM resampler would be a large dependency.
 */
function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to || samples.length === 0) return samples;
  const length = Math.max(1, Math.round((samples.length * to) / from));
  const out = new Float32Array(length);
  const step = from / to;
  for (let i = 0; i < length; i++) {
    const pos = i * step;
    const left = Math.floor(pos);
    const frac = pos - left;
    const a = samples[Math.min(left, samples.length - 1)] ?? 0;
    const b = samples[Math.min(left + 1, samples.length - 1)] ?? 0;
    out[i] = a + (b - a) * frac;
  }
  return out;
}

/** Sample rates an MPEG audio stream can carry. */
const MPEG_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];

/** The highest input rate if MPEG can carry it (usually: no resampling at all), else 22.05 kHz. */
export function outputRate(parts: readonly Pcm[]): number {
  const highest = Math.max(...parts.map((p) => p.sampleRate));
  return MPEG_RATES.includes(highest) ? highest : 22050;
}

/** Concatenates the parts at `rate`, with `pauseSeconds` of silence between consecutive parts. */
export function joinWithPauses(parts: readonly Pcm[], rate: number, pauseSeconds: number): Float32Array {
  const converted = parts.map((p) => resample(toFloat32(p.samples), p.sampleRate, rate));
  const pause = Math.round(pauseSeconds * rate);
  const total = converted.reduce((n, p) => n + p.length, 0) + pause * Math.max(0, converted.length - 1);
  const out = new Float32Array(total);
  let offset = 0;
  converted.forEach((part, i) => {
    if (i > 0) offset += pause;
    out.set(part, offset);
    offset += part.length;
  });
  return out;
}
