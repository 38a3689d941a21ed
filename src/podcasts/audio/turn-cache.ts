/**
 * Synthesized turns on disk, keyed by a hash of engine, voice fingerprint and text, so that a
 * retried episode re-synthesises only the turns that are missing. Stored as 16-bit WAV (readable
 * by any audio tool when debugging); written to a temporary name and renamed, so a crash never
 * leaves a truncated entry behind.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Pcm, toInt16 } from "./pcm.ts";

const HEADER_BYTES = 44;

function wav(samples: Int16Array, sampleRate: number): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES + samples.byteLength);
  const view = new DataView(out.buffer);
  const ascii = (at: number, s: string) => out.set(new TextEncoder().encode(s), at);
  ascii(0, "RIFF");
  view.setUint32(4, 36 + samples.byteLength, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, samples.byteLength, true);
  new Int16Array(out.buffer, HEADER_BYTES).set(samples);
  return out;
}

/** Reads back what `wav` wrote; anything else (or a damaged file) counts as a cache miss. */
function unwav(bytes: Uint8Array): Pcm | null {
  if (bytes.length < HEADER_BYTES) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => new TextDecoder().decode(bytes.subarray(at, at + 4));
  const dataBytes = view.getUint32(40, true);
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE" || tag(36) !== "data" || dataBytes !== bytes.length - HEADER_BYTES)
    return null;
  const samples = new Int16Array(dataBytes / 2);
  new Uint8Array(samples.buffer).set(bytes.subarray(HEADER_BYTES));
  return { samples, sampleRate: view.getUint32(24, true) };
}

export class TurnAudioCache {
  constructor(private readonly dir: string) {}

  static key(engine: string, fingerprint: string, text: string): string {
    return createHash("sha256").update(`${engine}\n${fingerprint}\n${text}`).digest("hex");
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.wav`);
  }

  async get(key: string): Promise<Pcm | null> {
    const bytes = await readFile(this.path(key)).catch(() => null);
    return bytes ? unwav(bytes) : null;
  }

  async put(key: string, pcm: Pcm): Promise<void> {
    const path = this.path(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    const tmp = `${path}.${randomUUID()}.tmp`;
    const samples = pcm.samples instanceof Int16Array ? pcm.samples : toInt16(pcm.samples);
    await writeFile(tmp, wav(samples, pcm.sampleRate));
    await rename(tmp, path);
  }

  /** Drops entries once their episode is stored: a ready episode is never synthesized again. */
  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.path(key), { force: true })));
  }
}
