/**
 * MPEG audio Layer III frame headers: enough to walk an encoded stream and to write the "Info"
 * frame that tells players the exact length of a constant-bitrate file. Hand-written because the
 * encoder (lamejs) keeps its own tag writer internal, and no maintained npm package writes one.
 */

export interface FrameHeader {
  /** 1 for MPEG-1, 2 for MPEG-2 and MPEG-2.5. */
  mpeg: 1 | 2;
  bitrateKbps: number;
  sampleRate: number;
  padding: boolean;
  mono: boolean;
  /** Bytes in the frame, header included. */
  length: number;
  samplesPerFrame: number;
}

const BITRATES_MPEG1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_MPEG2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** Parses a Layer III header at `offset`, or null when there is none. */
export function parseFrameHeader(bytes: Uint8Array, offset: number): FrameHeader | null {
  if (offset + 4 > bytes.length) return null;
  const b1 = bytes[offset + 1] ?? 0;
  const b2 = bytes[offset + 2] ?? 0;
  const b3 = bytes[offset + 3] ?? 0;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0 || ((b1 >> 1) & 3) !== 1) return null;
  const versionBits = (b1 >> 3) & 3;
  const rates = RATES[versionBits];
  if (!rates) return null;
  const mpeg = versionBits === 3 ? 1 : 2;
  const bitrateKbps = (mpeg === 1 ? BITRATES_MPEG1 : BITRATES_MPEG2)[b2 >> 4];
  const sampleRate = rates[(b2 >> 2) & 3];
  if (!bitrateKbps || !sampleRate) return null;
  const padding = ((b2 >> 1) & 1) === 1;
  const samplesPerFrame = mpeg === 1 ? 1152 : 576;
  const length = Math.floor(((samplesPerFrame / 8) * bitrateKbps * 1000) / sampleRate) + (padding ? 1 : 0);
  return { mpeg, bitrateKbps, sampleRate, padding, mono: b3 >> 6 === 3, length, samplesPerFrame };
}

/** Headers of every frame of a stream that starts with a frame (as the encoder's output does). */
export function walkFrames(bytes: Uint8Array): FrameHeader[] {
  const frames: FrameHeader[] = [];
  let offset = 0;
  for (let h = parseFrameHeader(bytes, offset); h; h = parseFrameHeader(bytes, offset)) {
    frames.push(h);
    offset += h.length;
  }
  return frames;
}

/** Where the Xing/Info tag sits: after the header and the side information of the first frame. */
function infoTagOffset(h: Pick<FrameHeader, "mpeg" | "mono">): number {
  const sideInfo = h.mpeg === 1 ? (h.mono ? 17 : 32) : h.mono ? 9 : 17;
  return 4 + sideInfo;
}

/**
 * An "Info" frame (the constant-bitrate Xing tag) for `audioFrames` frames and `audioBytes` bytes
 * that follow it; shaped like `first` so decoders skip it as silence-free metadata.
 */
export function infoFrame(firstHeaderBytes: Uint8Array, audioFrames: number, audioBytes: number): Uint8Array {
  const header = Uint8Array.from(firstHeaderBytes.subarray(0, 4));
  header[2] = (header[2] ?? 0) & ~0x02; // no padding: a fixed, known length
  const h = parseFrameHeader(header, 0);
  if (!h) throw new Error("not an MPEG Layer III frame header");
  const frame = new Uint8Array(h.length);
  frame.set(header, 0);
  const view = new DataView(frame.buffer);
  const at = infoTagOffset(h);
  frame.set(new TextEncoder().encode("Info"), at);
  view.setUint32(at + 4, 0x3); // fields present: frame count, byte count
  view.setUint32(at + 8, audioFrames);
  view.setUint32(at + 12, audioBytes + h.length);
  return frame;
}
