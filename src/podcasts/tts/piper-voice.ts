/**
 * Piper's voice format: `<voice>.onnx` (a VITS model) beside `<voice>.onnx.json`, whose fields are
 * read here as Piper itself reads them (defaults included), and its phoneme-to-id encoding.
 */
import { readFile } from "node:fs/promises";

export interface PiperVoiceConfig {
  sampleRate: number;
  espeakVoice: string;
  noiseScale: number;
  lengthScale: number;
  noiseW: number;
  numSpeakers: number;
  speakerIdMap: Record<string, number>;
  phonemeIdMap: Record<string, number[]>;
}

const PAD = "_";
const BOS = "^";
const EOS = "$";

function fail(path: string, what: string): never {
  throw new Error(`${path}: ${what}`);
}

function num(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function parsePiperVoiceConfig(json: unknown, path: string): PiperVoiceConfig {
  const root = record(json);
  const audio = record(root.audio);
  const espeak = record(root.espeak);
  const inference = record(root.inference);
  const phonemeType = root.phoneme_type ?? "espeak";
  if (phonemeType !== "espeak") fail(path, `phoneme_type "${String(phonemeType)}" is not supported (only espeak)`);
  const sampleRate = audio.sample_rate;
  if (typeof sampleRate !== "number" || !Number.isInteger(sampleRate) || sampleRate <= 0)
    fail(path, "audio.sample_rate missing");
  if (typeof espeak.voice !== "string" || !espeak.voice) fail(path, "espeak.voice missing");

  const phonemeIdMap: Record<string, number[]> = {};
  for (const [phoneme, ids] of Object.entries(record(root.phoneme_id_map))) {
    if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id)))
      fail(path, `phoneme_id_map["${phoneme}"] is not a list of integers`);
    phonemeIdMap[phoneme] = ids as number[];
  }
  for (const symbol of [PAD, BOS, EOS]) {
    if (!phonemeIdMap[symbol]) fail(path, `phoneme_id_map lacks "${symbol}"`);
  }
  const speakerIdMap: Record<string, number> = {};
  for (const [speaker, id] of Object.entries(record(root.speaker_id_map))) {
    if (Number.isInteger(id)) speakerIdMap[speaker] = id as number;
  }
  return {
    sampleRate,
    espeakVoice: espeak.voice,
    noiseScale: num(inference.noise_scale, 0.667),
    lengthScale: num(inference.length_scale, 1),
    noiseW: num(inference.noise_w, 0.8),
    numSpeakers: Math.max(1, num(root.num_speakers, 1)),
    speakerIdMap,
    phonemeIdMap,
  };
}

export async function readPiperVoiceConfig(path: string): Promise<PiperVoiceConfig> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (err) {
    fail(path, err instanceof Error ? err.message : String(err));
  }
  return parsePiperVoiceConfig(json, path);
}

/**
 * Piper's encoding of one sentence: BOS, pad, then each phoneme's ids followed by pad, then EOS.
 * Phonemes the voice does not know are skipped, as Piper does.
 */
export function phonemesToIds(phonemes: readonly string[], idMap: Record<string, number[]>): number[] {
  const pad = idMap[PAD] ?? [];
  const ids = [...(idMap[BOS] ?? []), ...pad];
  for (const phoneme of phonemes) {
    const mapped = idMap[phoneme];
    if (!mapped) continue;
    ids.push(...mapped, ...pad);
  }
  ids.push(...(idMap[EOS] ?? []));
  return ids;
}
