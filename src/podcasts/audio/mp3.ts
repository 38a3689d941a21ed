/** PCM to a constant-bitrate mono MP3 with an Info frame, encoded in slices between event-loop turns. */
import { yieldToEventLoop } from "../yield.ts";
import { infoFrame, walkFrames } from "./mp3-frames.ts";
import { toInt16 } from "./pcm.ts";

export interface Mp3 {
  bytes: Uint8Array;
  /** Length as players compute it from the Info frame: audio frames × samples per frame. */
  durationSeconds: number;
}

/** About 0.5 s of 22.05 kHz audio per slice (a multiple of the 576-sample MPEG-2 frame). */
const SLICE_SAMPLES = 576 * 20;

/** lamejs returns Int8Array views although it declares Uint8Array. */
function asBytes(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

export async function encodeMp3(samples: Float32Array, sampleRate: number, bitrateKbps: number): Promise<Mp3> {
  // Imported on first use, not at server start.
  const { Mp3Encoder } = await import("@breezystack/lamejs");
  const encoder = new Mp3Encoder(1, sampleRate, bitrateKbps);
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < samples.length; start += SLICE_SAMPLES) {
    const slice = toInt16(samples.subarray(start, start + SLICE_SAMPLES));
    chunks.push(Uint8Array.from(asBytes(encoder.encodeBuffer(slice))));
    await yieldToEventLoop();
  }
  chunks.push(Uint8Array.from(asBytes(encoder.flush())));

  const audio = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    audio.set(chunk, offset);
    offset += chunk.length;
  }
  const frames = walkFrames(audio);
  const first = frames[0];
  if (!first) throw new Error("the MP3 encoder produced no frames");
  const info = infoFrame(audio, frames.length, audio.length);
  const bytes = new Uint8Array(info.length + audio.length);
  bytes.set(info, 0);
  bytes.set(audio, info.length);
  return { bytes, durationSeconds: (frames.length * first.samplesPerFrame) / first.sampleRate };
}
