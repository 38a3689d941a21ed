import { describe, expect, test } from "bun:test";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../../src/errors.ts";
import { chooseTtsEngine, createTtsEngines, parseTtsProvider } from "../../src/podcasts/tts/registry.ts";
import { writeFakePiperVoice } from "./fixtures/fake-piper-voice.ts";

const ID_MAP = { _: [0], "^": [1], $: [2] };

async function engines(withPiperVoices: boolean) {
  const modelsDir = await mkdtemp(join(tmpdir(), "cf-models-"));
  if (withPiperVoices) {
    for (const v of ["h", "g"]) await writeFakePiperVoice(join(modelsDir, "piper"), v, { phonemeIdMap: ID_MAP });
  }
  return createTtsEngines({ modelsDir, piperHostVoice: "h", piperGuestVoice: "g" });
}

describe("tts_provider", () => {
  test("accepts engine names and the interface's aliases", () => {
    expect(parseTtsProvider("piper")).toBe("piper");
    expect(parseTtsProvider("espeak")).toBe("espeak");
    expect(parseTtsProvider("provider_a")).toBe("piper");
    expect(parseTtsProvider("provider_b")).toBe("espeak");
  });

  test("rejects anything else with a 422", () => {
    let caught: unknown;
    try {
      parseTtsProvider("polly");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ status: 422, details: { field: "tts_provider" } });
  });
});

describe("choosing the engine", () => {
  test("the request wins over the tenant, the tenant over the server setting", async () => {
    const all = await engines(false);
    expect((await chooseTtsEngine(all, "espeak", "piper", "piper")).name).toBe("espeak");
    expect((await chooseTtsEngine(all, null, "espeak", "piper")).name).toBe("espeak");
    expect((await chooseTtsEngine(all, null, null, "piper")).name).toBe("piper");
  });

  test("a named engine is kept even when unavailable, so the episode can say what to install", async () => {
    const all = await engines(false);
    const chosen = await chooseTtsEngine(all, "piper", null, "auto");
    expect(chosen.name).toBe("piper");
    expect((await chosen.available()).ok).toBe(false);
  });

  test("auto picks Piper when its voices are present, else eSpeak NG", async () => {
    expect((await chooseTtsEngine(await engines(false), null, null, "auto")).name).toBe("espeak");
    expect((await chooseTtsEngine(await engines(true), null, null, "auto")).name).toBe("piper");
  });
});
