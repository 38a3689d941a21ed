import { describe, expect, test } from "bun:test";
import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TurnAudioCache } from "../../src/podcasts/audio/turn-cache.ts";
import { renderEpisodeAudio, type ScriptTurn } from "../../src/podcasts/render-audio.ts";
import type { TtsEngine } from "../../src/podcasts/tts/engine.ts";
import { EspeakEngine } from "../../src/podcasts/tts/espeak.ts";

/** The real eSpeak engine, recording which texts it was asked to speak. */
function recordingEngine(calls: string[]): TtsEngine {
  const real = new EspeakEngine();
  return {
    name: real.name,
    installed: () => real.installed(),
    available: () => real.available(),
    voices: () => real.voices(),
    fingerprint: (voice) => real.fingerprint(voice),
    synthesize: (text, voice) => {
      calls.push(text);
      return real.synthesize(text, voice);
    },
  };
}

const script: ScriptTurn[] = [
  { speaker: "host", text: "What is a cell membrane?" },
  { speaker: "guest", text: "A thin layer of lipids that controls what enters the cell." },
  { speaker: "host", text: "And what leaves it." },
];

async function cacheDir() {
  return mkdtemp(join(tmpdir(), "cf-tts-cache-"));
}

async function cacheFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const sub of await readdir(dir)) for (const f of await readdir(join(dir, sub))) out.push(join(dir, sub, f));
  return out;
}

describe("per-turn audio cache", () => {
  test("a second render of the same script synthesizes nothing and yields the same audio", async () => {
    const dir = await cacheDir();
    const calls: string[] = [];
    const engine = recordingEngine(calls);
    const first = await renderEpisodeAudio(engine, script, { cache: new TurnAudioCache(dir) });
    expect(first).toMatchObject({ synthesized: 3, cached: 0 });
    expect(await cacheFiles(dir)).toHaveLength(3);

    calls.length = 0;
    const second = await renderEpisodeAudio(engine, script, { cache: new TurnAudioCache(dir) });
    expect(calls).toEqual([]);
    expect(second).toMatchObject({ synthesized: 0, cached: 3 });
    expect(second.bytes).toEqual(first.bytes);
  });

  test("a retry re-synthesizes only the missing or damaged turns", async () => {
    const dir = await cacheDir();
    const calls: string[] = [];
    const engine = recordingEngine(calls);
    const cache = new TurnAudioCache(dir);
    const first = await renderEpisodeAudio(engine, script, { cache });

    const [, guestKey, lastKey] = first.cacheKeys;
    await cache.delete([guestKey!]);
    const damaged = (await cacheFiles(dir)).find((f) => f.includes(lastKey!));
    await writeFile(damaged!, "RIFF not really");

    calls.length = 0;
    const retry = await renderEpisodeAudio(engine, script, { cache });
    expect(calls).toEqual([script[1]!.text, script[2]!.text]);
    expect(retry).toMatchObject({ synthesized: 2, cached: 1 });
  });

  test("the key separates engine, voice and text", () => {
    const key = TurnAudioCache.key("espeak", "voice=a", "Hello.");
    expect(TurnAudioCache.key("piper", "voice=a", "Hello.")).not.toBe(key);
    expect(TurnAudioCache.key("espeak", "voice=b", "Hello.")).not.toBe(key);
    expect(TurnAudioCache.key("espeak", "voice=a", "Hello!")).not.toBe(key);
    expect(TurnAudioCache.key("espeak", "voice=a", "Hello.")).toBe(key);
  });

  test("a cached turn reads back sample for sample", async () => {
    const cache = new TurnAudioCache(await cacheDir());
    const samples = Int16Array.from({ length: 1000 }, (_, i) => Math.round(Math.sin(i / 10) * 30000));
    await cache.put("ab12", { samples, sampleRate: 16000 });
    expect(await cache.get("ab12")).toEqual({ samples, sampleRate: 16000 });
    expect(await cache.get("cd34")).toBeNull();
  });
});
