import { describe, expect, test } from "bun:test";
import { LoudnessMeter, preFilter, rlbFilter } from "../../src/podcasts/audio/loudness.ts";
import {
  measureLoudness,
  normaliseLoudness,
  PEAK_CEILING_DBFS,
  TARGET_LUFS,
} from "../../src/podcasts/audio/normalise.ts";

const sine = (rate: number, seconds: number, dbfs: number, hz = 997) => {
  const amplitude = 10 ** (dbfs / 20);
  return Float32Array.from(
    { length: Math.round(rate * seconds) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate),
  );
};

const concat = (...parts: Float32Array[]) => {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

function loudness(samples: Float32Array, rate: number, slice = 4096): number {
  const meter = new LoudnessMeter(rate);
  for (let i = 0; i < samples.length; i += slice) meter.add(samples.subarray(i, i + slice));
  return meter.integrated();
}

describe("BS.1770-4 integrated loudness", () => {
  test("the K-weighting filters at 48 kHz are the standard's table (ITU-R BS.1770-4, Annex 1, Tables 1 and 2)", () => {
    const pre = preFilter(48000);
    const rlb = rlbFilter(48000);
    expect(pre.b0).toBeCloseTo(1.53512485958697, 10);
    expect(pre.b1).toBeCloseTo(-2.69169618940638, 10);
    expect(pre.b2).toBeCloseTo(1.19839281085285, 10);
    expect(pre.a1).toBeCloseTo(-1.69065929318241, 10);
    expect(pre.a2).toBeCloseTo(0.73248077421585, 10);
    expect([rlb.b0, rlb.b1, rlb.b2]).toEqual([1, -2, 1]);
    expect(rlb.a1).toBeCloseTo(-1.99004745483398, 10);
    expect(rlb.a2).toBeCloseTo(0.99007225036621, 10);
  });

  test("a full-scale 997 Hz sine reads -3.01 LUFS at 48 kHz, and within 0.05 LU of it at the speech rates", () => {
    expect(loudness(sine(48000, 10, 0), 48000)).toBeCloseTo(-3.01, 2);
    for (const rate of [44100, 22050, 16000])
      expect(Math.abs(loudness(sine(rate, 10, 0), rate) + 3.01)).toBeLessThan(0.05);
  });

  test("level changes move the reading one for one, however the audio is sliced", () => {
    const rate = 22050;
    const reference = loudness(sine(rate, 10, 0), rate);
    expect(loudness(sine(rate, 10, -20), rate, 1)).toBeCloseTo(reference - 20, 6);
    expect(loudness(sine(rate, 10, -20), rate, 100_000)).toBeCloseTo(reference - 20, 6);
  });

  // EBU Tech 3341 cases 3 and 4 are stereo with the same sine in both channels; one channel reads 3.01 LU lower.
  test("the relative gate leaves out passages 10 LU quieter (EBU Tech 3341, case 3, in mono)", () => {
    const rate = 48000;
    const signal = concat(sine(rate, 10, -36, 1000), sine(rate, 60, -23, 1000), sine(rate, 10, -36, 1000));
    expect(Math.abs(loudness(signal, rate) - (-23 - 3.01))).toBeLessThan(0.1);
  });

  test("the absolute gate leaves out near-silence (EBU Tech 3341, case 4, in mono); silence alone has no loudness", () => {
    const rate = 48000;
    const signal = concat(
      sine(rate, 10, -72, 1000),
      sine(rate, 10, -36, 1000),
      sine(rate, 60, -23, 1000),
      sine(rate, 10, -36, 1000),
      sine(rate, 10, -72, 1000),
    );
    expect(Math.abs(loudness(signal, rate) - (-23 - 3.01))).toBeLessThan(0.1);
    expect(loudness(new Float32Array(rate * 5), rate)).toBe(-Infinity);
    // Shorter than one 400 ms block: nothing to measure.
    expect(loudness(sine(rate, 0.3, 0), rate)).toBe(-Infinity);
  });
});

describe("normalisation", () => {
  /** Speech-like: syllables of a harmonic-rich tone, a plosive-like click in each, pauses between phrases. */
  function speechLike(rate: number, seconds: number): Float32Array {
    const out = new Float32Array(rate * seconds);
    for (let i = 0; i < out.length; i++) {
      const t = i / rate;
      const syllable = Math.max(0, Math.sin(Math.PI * 4 * t)) ** 3;
      const phrase = Math.floor(t / 1.5) % 4 === 3 ? 0 : 1;
      const voice =
        Math.sin(2 * Math.PI * 120 * t) +
        0.5 * Math.sin(2 * Math.PI * 240 * t) +
        0.25 * Math.sin(2 * Math.PI * 2500 * t);
      const plosive = i % Math.round(rate * 0.5) < 30 ? Math.sin(2 * Math.PI * 3000 * t) : 0;
      out[i] = phrase * (0.1 * syllable * voice + 0.6 * plosive);
    }
    return out;
  }

  test("brings speech to -16 LUFS with no sample above the peak ceiling", async () => {
    const rate = 22050;
    const input = speechLike(rate, 30);
    const before = await measureLoudness(input, rate);
    expect(before).toBeLessThan(TARGET_LUFS - 2);
    const result = await normaliseLoudness(input, rate);
    expect(result.inputLufs).toBeCloseTo(before, 6);
    // The gain alone would push the peaks past the ceiling: the limiter is what keeps them under.
    const inputPeak = input.reduce((p, v) => Math.max(p, Math.abs(v)), 0);
    expect(20 * Math.log10(inputPeak) + result.gainDb).toBeGreaterThan(PEAK_CEILING_DBFS + 3);
    expect(Math.abs((await measureLoudness(result.samples, rate)) - TARGET_LUFS)).toBeLessThan(0.2);
    let peak = 0;
    for (const v of result.samples) peak = Math.max(peak, Math.abs(v));
    expect(20 * Math.log10(peak)).toBeLessThanOrEqual(PEAK_CEILING_DBFS + 1e-4);
  });

  test("turns loud audio down, and leaves silence alone", async () => {
    const rate = 22050;
    const loud = sine(rate, 5, -1);
    const result = await normaliseLoudness(loud, rate);
    expect(result.gainDb).toBeLessThan(-10);
    expect(Math.abs(result.outputLufs - TARGET_LUFS)).toBeLessThan(0.2);
    const silence = new Float32Array(rate * 2);
    expect(await normaliseLoudness(silence, rate)).toMatchObject({ gainDb: 0, inputLufs: -Infinity });
  });
});
