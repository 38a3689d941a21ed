/**
 * Scripts written by a model (the fake Ollama, told what to reply): a script that is no
 * conversation is re-asked with what is wrong, and the episode fails with a clear reason when the
 * model never gets it right; a good script whose speakers' lines come split is joined, not lost.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { type ModelServer, startModelServer } from "../helpers/fake-model.ts";
import type { FakeOllama, RecordedCall } from "../helpers/fake-ollama.ts";
import { insertCourse } from "../helpers/fixtures.ts";
import { call, cleanup, tempDir } from "../helpers/server.ts";
import { writeStandInVoices } from "./fixtures/fake-piper-voice.ts";

let model: ModelServer;
let fake: FakeOllama;
let srv: TestApp;
let key: string;
const user = "listener";

/**
 * Stand-in Piper voices speak the episodes: the script is what is checked, and eSpeak's speech of
 * a 440-word script, encoded to MP3, was most of the file's CPU (speech has its own tests).
 */
const modelsDir = tempDir("cf-script-voices-");
beforeAll(async () => {
  await writeStandInVoices(modelsDir);
  model = await startModelServer({
    env: { TTS_PROVIDER: "piper", MODELS_DIR: modelsDir, PIPER_HOST_VOICE: "host", PIPER_GUEST_VOICE: "guest" },
  });
  ({ fake, srv, key } = model);
});
afterAll(async () => {
  await model.stop();
  cleanup(modelsDir);
});

type Speaker = "host" | "guest";
/** About 22 words a line, so twenty lines pass the script's 400-word minimum. */
const line = (i: number) =>
  `Line ${i + 1}: the Moon pulls on the oceans of the Earth, and that pull raises the tides twice a day along every coast.`;
const script = (speakers: Speaker[]) =>
  JSON.stringify({ title: "Tides, explained", turns: speakers.map((speaker, i) => ({ speaker, text: line(i) })) });
const repeat = (pattern: Speaker[], times: number) => Array.from({ length: times }, () => pattern).flat();

const isPodcastCall = (c: RecordedCall) => JSON.stringify(c.body?.messages ?? "").includes("two-person podcast");
const podcastCalls = () => fake.generations().filter(isPodcastCall);

/** Replies to podcast prompts in turn (the last one for any further call); other prompts get the fake's default. */
function scriptReplies(...replies: string[]) {
  let n = 0;
  fake.respondWith(({ prompt }) =>
    prompt.includes("two-person podcast") ? replies[Math.min(n++, replies.length - 1)] : undefined,
  );
}

async function episodeOf(courseId: string) {
  expect((await call(srv, `/v2/courses/${courseId}/podcasts/generate`, { key, user, json: {} })).status).toBe(200);
  const deadline = Date.now() + 240_000;
  for (;;) {
    const [episode] = (await call(srv, `/v2/courses/${courseId}/podcasts`, { key, user })).body.episodes;
    if (episode && episode.status !== "generating") return episode;
    if (Date.now() > deadline) throw new Error(`episode still generating:\n${srv.output().slice(-2000)}`);
    await Bun.sleep(100);
  }
}

describe("a model's podcast script", () => {
  test("spoken by one speaker only is re-asked, then the episode fails with PODCAST_SCRIPT_INVALID", async () => {
    const courseId = await insertCourse(srv.dataDir, { apiKey: key, externalUserId: user }, { chapters: 1 });
    const before = podcastCalls().length;
    scriptReplies(script(repeat(["host"], 20)));
    const episode = await episodeOf(courseId);

    expect(episode).toMatchObject({
      status: "error",
      audio_url: null,
      script: null,
      error: { code: "PODCAST_SCRIPT_INVALID" },
    });
    expect(episode.error.message).toContain("two-speaker script");
    expect(episode.error.message).toContain('every turn is spoken by "host"');
    expect(episode.error.request_id).toMatch(/^[0-9a-f-]{36}$/);
    // The first ask and LLM_MAX_RETRIES (2) re-asks, each telling the model what was wrong; the job is not run again.
    const calls = podcastCalls().slice(before);
    expect(calls).toHaveLength(3);
    for (const c of calls.slice(1)) {
      expect(c.body!.messages.at(-1).content).toContain("the host and the guest must both speak");
    }
  }, 300_000);

  test("with too few changes of speaker is re-asked; a good second script is kept, its split lines joined per speaker", async () => {
    const courseId = await insertCourse(srv.dataDir, { apiKey: key, externalUserId: user }, { chapters: 1 });
    const before = podcastCalls().length;
    const fewChanges = [...repeat(["host"], 10), ...repeat(["guest"], 10)];
    const splitLines = repeat(["host", "host", "guest", "guest"], 5);
    scriptReplies(script(fewChanges), script(splitLines));
    const episode = await episodeOf(courseId);

    const calls = podcastCalls().slice(before);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.body!.messages.at(-1).content).toContain("alternate host and guest for at least 8 turns");
    expect(episode).toMatchObject({ status: "ready", tts_provider: "piper" });
    const turns: { speaker: Speaker; text: string }[] = episode.script.turns;
    expect(turns).toHaveLength(10);
    turns.forEach((t, i) => {
      expect(t.speaker).toBe(i % 2 === 0 ? "host" : "guest");
      expect(t.text).toBe(`${line(2 * i)} ${line(2 * i + 1)}`);
    });
  }, 300_000);
});
