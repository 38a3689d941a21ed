/**
 * Integrated loudness of mono audio as ITU-R BS.1770-4 defines it (the measure EBU R128 and podcast
 * platforms normalise to): K-weighting (a high-shelf "pre-filter" and the RLB high-pass), mean square
 * over 400 ms blocks overlapping by 75 %, an absolute gate at -70 LUFS and a relative gate 10 LU
 * below the loudness of the blocks that passed it.
 *
 * Hand-written because the one npm package for it, ebur128-wasm, is built for bundlers that
 * instantiate `.wasm` imports (Bun does not, and a compiled executable has no file beside it), and
 * it measures a whole recording in one blocking call. This meter takes audio slice by slice, so the
 * caller can yield between slices.
 *
 * The filters are given in the standard as coefficients at 48 kHz only. Like libebur128 (the
 * reference implementation EBU lists), they are derived here for any rate from the analog
 * prototype those coefficients come from; at 48 kHz the result equals the standard's table.
 */

/** Biquad coefficients, a0 normalised to 1. */
export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/** Stage 1 of BS.1770-4 Annex 1: the head's acoustic effect, a +4 dB shelf above ~1.7 kHz. */
export function preFilter(sampleRate: number): Biquad {
  const f0 = 1681.974450955533;
  const gainDb = 3.999843853973347;
  const q = 0.7071752369554196;
  const k = Math.tan((Math.PI * f0) / sampleRate);
  const vh = 10 ** (gainDb / 20);
  const vb = vh ** 0.4996667741545416;
  const a0 = 1 + k / q + k * k;
  return {
    b0: (vh + (vb * k) / q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / q + k * k) / a0,
  };
}

/** Stage 2 of BS.1770-4 Annex 1: the "RLB" high-pass at ~38 Hz (numerator 1, -2, 1 as in the standard). */
export function rlbFilter(sampleRate: number): Biquad {
  const f0 = 38.13547087602444;
  const q = 0.5003270373238773;
  const k = Math.tan((Math.PI * f0) / sampleRate);
  const a0 = 1 + k / q + k * k;
  return { b0: 1, b1: -2, b2: 1, a1: (2 * (k * k - 1)) / a0, a2: (1 - k / q + k * k) / a0 };
}

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
/** Blocks are four 100 ms steps long (400 ms, 75 % overlap). */
const STEPS_PER_BLOCK = 4;

const loudnessOf = (meanSquare: number) => -0.691 + 10 * Math.log10(meanSquare);

export class LoudnessMeter {
  private readonly pre: Biquad;
  private readonly rlb: Biquad;
  // Direct form I state of both stages.
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;
  private z1 = 0;
  private z2 = 0;
  /** Sum of squared K-weighted samples and sample count of each finished 100 ms step. */
  private readonly stepSums: number[] = [];
  private readonly stepCounts: number[] = [];
  private currentSum = 0;
  private currentCount = 0;
  private seen = 0;

  constructor(private readonly sampleRate: number) {
    this.pre = preFilter(sampleRate);
    this.rlb = rlbFilter(sampleRate);
  }

  /** Where the current 100 ms step ends; rounded, so rates like 11 025 Hz keep their average length. */
  private stepEnd(): number {
    return Math.round(((this.stepSums.length + 1) * this.sampleRate) / 10);
  }

  add(samples: Float32Array): void {
    const { pre, rlb } = this;
    let { x1, x2, y1, y2, z1, z2, currentSum, currentCount, seen } = this;
    let end = this.stepEnd();
    for (let i = 0; i < samples.length; i++) {
      const x = samples[i] ?? 0;
      const y = pre.b0 * x + pre.b1 * x1 + pre.b2 * x2 - pre.a1 * y1 - pre.a2 * y2;
      x2 = x1;
      x1 = x;
      const z = rlb.b0 * y + rlb.b1 * y1 + rlb.b2 * y2 - rlb.a1 * z1 - rlb.a2 * z2;
      y2 = y1;
      y1 = y;
      z2 = z1;
      z1 = z;
      currentSum += z * z;
      currentCount++;
      if (++seen === end) {
        this.stepSums.push(currentSum);
        this.stepCounts.push(currentCount);
        currentSum = 0;
        currentCount = 0;
        end = this.stepEnd();
      }
    }
    this.x1 = x1;
    this.x2 = x2;
    this.y1 = y1;
    this.y2 = y2;
    this.z1 = z1;
    this.z2 = z2;
    this.currentSum = currentSum;
    this.currentCount = currentCount;
    this.seen = seen;
  }

  /** Integrated loudness in LUFS of everything added; -Infinity when no block passes the absolute gate. */
  integrated(): number {
    const blocks: number[] = [];
    for (let j = 0; j + STEPS_PER_BLOCK <= this.stepSums.length; j++) {
      let sum = 0;
      let count = 0;
      for (let s = j; s < j + STEPS_PER_BLOCK; s++) {
        sum += this.stepSums[s] ?? 0;
        count += this.stepCounts[s] ?? 0;
      }
      const meanSquare = sum / count;
      if (meanSquare > 0 && loudnessOf(meanSquare) > ABSOLUTE_GATE_LUFS) blocks.push(meanSquare);
    }
    if (blocks.length === 0) return -Infinity;
    const relativeGate = loudnessOf(blocks.reduce((a, b) => a + b, 0) / blocks.length) + RELATIVE_GATE_LU;
    const gated = blocks.filter((z) => loudnessOf(z) > relativeGate);
    return loudnessOf(gated.reduce((a, b) => a + b, 0) / gated.length);
  }
}
