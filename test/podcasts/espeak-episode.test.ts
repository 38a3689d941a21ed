import { describe, expect, test } from "bun:test";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_TURN_PAUSE_SECONDS } from "../../src/podcasts/audio/episode.ts";
import { parseFrameHeader, walkFrames } from "../../src/podcasts/audio/mp3-frames.ts";
import { TurnAudioCache } from "../../src/podcasts/audio/turn-cache.ts";
import { renderEpisodeAudio, type ScriptTurn } from "../../src/podcasts/render-audio.ts";
import { EspeakEngine } from "../../src/podcasts/tts/espeak.ts";
import { asFloat, decodeMp3, medianPitchHz } from "./fixtures/audio-analysis.ts";

const engine = new EspeakEngine();

const script: ScriptTurn[] = [
  {
    speaker: "host",
    text: "Welcome back to the show. Today we are looking at photosynthesis, the process that feeds almost every living thing.",
  },
  {
    speaker: "guest",
    text: "Thanks for having me. Plants capture sunlight with chlorophyll and use that energy to turn water and carbon dioxide into sugar.",
  },
  { speaker: "host", text: "So where does the oxygen we breathe come from?" },
  {
    speaker: "guest",
    text: "It is released when water molecules are split during the light reactions. That is the surprising part for most students!",
  },
];
const words = script.reduce((n, t) => n + t.text.split(/\s+/).length, 0);

async function freshCache() {
  return new TurnAudioCache(await mkdtemp(join(tmpdir(), "cf-tts-cache-")));
}

describe("eSpeak NG engine", () => {
  test("is available without anything installed on the system", async () => {
    expect(await engine.available()).toEqual({ ok: true });
  });

  test("host and guest speak with clearly different voices", async () => {
    const { host, guest } = engine.voices();
    expect(host).not.toBe(guest);
    const line = "Chlorophyll absorbs red and blue light and reflects green light.";
    const a = await engine.synthesize(line, host);
    const b = await engine.synthesize(line, guest);
    expect(a.sampleRate).toBe(22050);
    const hostPitch = medianPitchHz(asFloat(a.samples), a.sampleRate);
    const guestPitch = medianPitchHz(asFloat(b.samples), b.sampleRate);
    expect(hostPitch).toBeGreaterThan(70);
    expect(hostPitch).toBeLessThan(150);
    expect(guestPitch).toBeGreaterThan(hostPitch * 1.5);
  });

  test("speaks markup characters and phoneme brackets in the text instead of obeying them", async () => {
    const voice = engine.voices().host;
    const seconds = async (text: string) => (await engine.synthesize(text, voice)).samples.length / 22050;
    // Read as SSML, "<b>" would be a tag and vanish; as text, the "b" is spoken.
    expect(await seconds("x <b> y")).toBeGreaterThan((await seconds("x y")) + 0.2);
    expect(await seconds("x [[a]] y")).toBeGreaterThan(await seconds("x a y"));
  });
});

describe("episode audio with eSpeak NG", () => {
  test("decodes as mono speech-bitrate MP3 whose length fits the script and whose header states it", async () => {
    const episode = await renderEpisodeAudio(engine, script, { cache: await freshCache(), bitrateKbps: 48 });
    expect(episode.contentType).toBe("audio/mpeg");

    const frames = walkFrames(episode.bytes);
    const info = frames[0];
    expect(info).toBeDefined();
    expect(new TextDecoder().decode(episode.bytes.subarray(4 + 9, 4 + 9 + 4))).toBe("Info");
    const view = new DataView(episode.bytes.buffer, episode.bytes.byteOffset);
    const statedFrames = view.getUint32(4 + 9 + 8);
    expect(statedFrames).toBe(frames.length - 1);
    expect(view.getUint32(4 + 9 + 12)).toBe(episode.bytes.length);
    for (const frame of frames) {
      expect(frame).toMatchObject({ bitrateKbps: 48, sampleRate: 22050, mono: true });
    }

    const decoded = await decodeMp3(episode.bytes);
    expect(decoded.errors).toBe(0);
    expect(decoded.sampleRate).toBe(22050);
    const seconds = decoded.samples.length / decoded.sampleRate;
    expect(Math.abs(seconds - episode.durationSeconds)).toBeLessThan(0.1);
    // 165 words per minute plus pauses; allow eSpeak's own pacing some room.
    const expected = (words / 165) * 60 + DEFAULT_TURN_PAUSE_SECONDS * (script.length - 1);
    expect(seconds).toBeGreaterThan(expected * 0.7);
    expect(seconds).toBeLessThan(expected * 1.5);
  });

  test("the decoded file carries both voices: host turns low, guest turns high", async () => {
    const cache = await freshCache();
    const [hostTurn, guestTurn] = script;
    const episode = await renderEpisodeAudio(engine, [hostTurn!, guestTurn!], { cache });
    const hostSeconds = (await engine.synthesize(hostTurn!.text, engine.voices().host)).samples.length / 22050;
    const decoded = await decodeMp3(episode.bytes);
    const split = Math.round((hostSeconds + DEFAULT_TURN_PAUSE_SECONDS / 2) * decoded.sampleRate);
    const hostPitch = medianPitchHz(decoded.samples.subarray(0, split), decoded.sampleRate);
    const guestPitch = medianPitchHz(decoded.samples.subarray(split), decoded.sampleRate);
    expect(guestPitch).toBeGreaterThan(hostPitch * 1.5);
  });

  test("parseFrameHeader rejects bytes that are not a Layer III frame", () => {
    expect(parseFrameHeader(new Uint8Array([0x49, 0x44, 0x33, 0x04]), 0)).toBeNull();
  });
});
