import { describe, expect, test } from "bun:test";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TurnAudioCache } from "../../src/podcasts/audio/turn-cache.ts";
import { renderEpisodeAudio } from "../../src/podcasts/render-audio.ts";
import { PiperEngine } from "../../src/podcasts/tts/piper.ts";
import { decodeMp3 } from "./fixtures/audio-analysis.ts";
import { writeFakePiperVoice } from "./fixtures/fake-piper-voice.ts";

/** Ids for the phonemes of "Hi, test." in eSpeak NG's en-us IPA, plus Piper's special symbols. */
const ID_MAP = {
  _: [0],
  "^": [1],
  $: [2],
  " ": [3],
  ",": [4],
  ".": [5],
  h: [10],
  ˈ: [11],
  a: [12],
  ɪ: [13],
  t: [14],
  ɛ: [15],
  s: [16],
};

async function voicesDir() {
  return join(await mkdtemp(join(tmpdir(), "cf-piper-")), "piper");
}

describe("Piper engine", () => {
  test("reports unavailable, naming the files to place, when the voices are absent", async () => {
    const dir = await voicesDir();
    const engine = new PiperEngine({
      voicesDir: dir,
      hostVoice: "en_US-ryan-medium",
      guestVoice: "en_US-lessac-medium",
    });
    const result = await engine.available();
    expect(result.ok).toBe(false);
    expect(result.reason).toContain("en_US-ryan-medium.onnx");
    expect(result.reason).toContain("en_US-lessac-medium.onnx.json");
    expect(result.reason).toContain(dir);
    expect(result.reason).toContain("models/README.md");
  });

  test("reports unavailable when a voice file is not a Piper config, or both speakers share a voice", async () => {
    const dir = await voicesDir();
    await writeFakePiperVoice(dir, "host", { phonemeIdMap: ID_MAP });
    await writeFakePiperVoice(dir, "guest", { phonemeIdMap: ID_MAP });
    await writeFile(join(dir, "guest.onnx.json"), JSON.stringify({ audio: {}, phoneme_id_map: {} }));
    const broken = await new PiperEngine({ voicesDir: dir, hostVoice: "host", guestVoice: "guest" }).available();
    expect(broken.ok).toBe(false);
    expect(broken.reason).toContain("guest.onnx.json");

    const same = await new PiperEngine({ voicesDir: dir, hostVoice: "host", guestVoice: "host" }).available();
    expect(same).toMatchObject({ ok: false, reason: expect.stringContaining("same voice") });
  });

  test("feeds the model Piper's phoneme ids: BOS, pad-interleaved phonemes with punctuation, EOS", async () => {
    const dir = await voicesDir();
    await writeFakePiperVoice(dir, "host", { phonemeIdMap: ID_MAP });
    await writeFakePiperVoice(dir, "guest", { phonemeIdMap: ID_MAP, speakers: { alice: 0, bob: 7 } });
    const engine = new PiperEngine({ voicesDir: dir, hostVoice: "host", guestVoice: "guest:bob" });
    expect(await engine.available()).toEqual({ ok: true });

    // The stand-in model outputs its input ids; the engine peak-normalises them (max id 16).
    const out = await engine.synthesize("Hi, test.", "host");
    expect(out.sampleRate).toBe(22050);
    const expected = [1, 0, 10, 0, 11, 0, 12, 0, 13, 0, 4, 0, 3, 0, 14, 0, 11, 0, 15, 0, 16, 0, 14, 0, 5, 0, 2];
    expect(Array.from(out.samples.subarray(0, expected.length), (v) => Math.round(v * 16))).toEqual(expected);
    // Then Piper's 0.2 s of silence after the sentence.
    expect(out.samples.length).toBe(expected.length + Math.round(0.2 * 22050));
    expect(out.samples.subarray(expected.length).every((v) => v === 0)).toBe(true);

    // A multi-speaker voice gets its speaker id (the stand-in adds it to every sample).
    const bob = await engine.synthesize("Hi.", "guest:bob");
    const peak = 13 + 7;
    expect(Math.round((bob.samples[0] ?? 0) * peak)).toBe(1 + 7);
  });

  test("an episode mixing voices of different sample rates is encoded at one rate", async () => {
    const dir = await voicesDir();
    await writeFakePiperVoice(dir, "low", { phonemeIdMap: ID_MAP, sampleRate: 16000 });
    await writeFakePiperVoice(dir, "medium", { phonemeIdMap: ID_MAP, sampleRate: 22050 });
    const engine = new PiperEngine({ voicesDir: dir, hostVoice: "low", guestVoice: "medium" });
    const cache = new TurnAudioCache(await mkdtemp(join(tmpdir(), "cf-tts-cache-")));
    const episode = await renderEpisodeAudio(
      engine,
      [
        { speaker: "host", text: "Hi, test." },
        { speaker: "guest", text: "Hi, test." },
      ],
      { cache },
    );
    const decoded = await decodeMp3(episode.bytes);
    expect(decoded.sampleRate).toBe(22050);
    // Two sentences with 0.2 s silence each, 0.45 s between turns.
    expect(decoded.samples.length / decoded.sampleRate).toBeGreaterThan(0.8);
    expect(decoded.samples.length / decoded.sampleRate).toBeLessThan(1.2);
  });
});
