import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { createMediaUrls } from "../../src/media/signed-url.ts";
import { createSigner } from "../../src/media/signer.ts";
import { setTenantTtsProvider } from "../../src/tenants/keys.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { insertCourse } from "../helpers/fixtures.ts";
import { call, errorOf, startServer } from "../helpers/server.ts";
import { decodeMp3 } from "./fixtures/audio-analysis.ts";

/** No Piper voices anywhere: MODELS_DIR is an empty folder. */
const env = { RATE_LIMIT_PER_MINUTE: "10000", MODELS_DIR: mkdtempSync(join(tmpdir(), "cf-no-models-")) };

let srv: TestApp;
let key: string;
const user = "learner-1";

beforeAll(async () => {
  srv = await startApp({ env });
  key = await srv.createKey("acme", "test");
});
afterAll(() => srv.stop());

/** Speech synthesis takes seconds on an idle 2-core machine and minutes beside other work. */
const SLOW = 300_000;

const generate = (
  courseId: string,
  provider?: string,
  opts: { key?: string; server?: Pick<TestApp, "fetch" | "output"> } = {},
) =>
  call(opts.server ?? srv, `/v2/courses/${courseId}/podcasts/generate${provider ? `?tts_provider=${provider}` : ""}`, {
    key: opts.key ?? key,
    user,
    json: {},
  });

const list = (courseId: string, opts: { key?: string; server?: Pick<TestApp, "fetch" | "output"> } = {}) =>
  call(opts.server ?? srv, `/v2/courses/${courseId}/podcasts`, { key: opts.key ?? key, user });

/** Polls the listing until no episode is generating any more. */
async function settled(courseId: string, opts: { key?: string; server?: Pick<TestApp, "fetch" | "output"> } = {}) {
  const deadline = Date.now() + SLOW - 30_000;
  for (;;) {
    const r = await list(courseId, opts);
    if (r.body.count > 0 && r.body.episodes.every((e: { status: string }) => e.status !== "generating")) return r.body;
    if (Date.now() > deadline) {
      throw new Error(
        `episodes still generating: ${JSON.stringify(r.body)}\n${(opts.server ?? srv).output().slice(-3000)}`,
      );
    }
    await Bun.sleep(100);
  }
}

interface SpokenEpisode {
  id: string;
  audio_url: string;
  script: unknown;
}

/**
 * The course the concurrency test has spoken, with its episodes: a test that needs only a signed
 * audio URL, or episodes to fail and generate again, reads it rather than wait for speech of its
 * own (it speaks a course of one chapter when run alone).
 */
let spokenCourse: { courseId: string; episodes: SpokenEpisode[] } | null = null;

async function spokenOrOwn(): Promise<{ courseId: string; episodes: SpokenEpisode[] }> {
  if (spokenCourse) return spokenCourse;
  const courseId = await insertCourse(srv.dataDir, { apiKey: key, externalUserId: user }, { chapters: 1 });
  await generate(courseId, "espeak");
  return { courseId, episodes: (await settled(courseId)).episodes };
}

async function countRows(dataDir: string, sql: string, ...args: string[]): Promise<number> {
  const { sqlite } = await openDb(dataDir, { migrate: false });
  try {
    return sqlite.query<{ n: number }, string[]>(sql).get(...args)!.n;
  } finally {
    sqlite.close();
  }
}

describe("POST /v2/courses/{id}/podcasts/generate", () => {
  test(
    "404 for an unknown course, 422 for an unknown provider, 409 while the course is generating",
    async () => {
      const unknown = crypto.randomUUID();
      const courseId = await insertCourse(srv.dataDir, { apiKey: key, externalUserId: user });
      expect((await generate(unknown)).status).toBe(404);
      expect((await list(unknown)).status).toBe(404);
      // Another learner's course is not found either.
      const others = await insertCourse(srv.dataDir, { apiKey: key, externalUserId: "someone-else" });
      expect((await generate(others)).status).toBe(404);
      expect((await list(others)).status).toBe(404);

      const bad = await generate(courseId, "polly");
      expect(bad.status).toBe(422);
      expect(errorOf(bad).code).toBe("VALIDATION_ERROR");
      expect((await list(courseId)).body.count).toBe(0);

      const busy = await insertCourse(srv.dataDir, { apiKey: key, externalUserId: user }, { status: "generating" });
      const conflict = await generate(busy);
      expect(conflict.status).toBe(409);
      expect(errorOf(conflict).code).toBe("COURSE_GENERATING");
    },
    SLOW,
  );

  test(
    "concurrent calls create one episode per chapter, which become ready with real, signed, seekable audio",
    async () => {
      const courseId = await insertCourse(srv.dataDir, { apiKey: key, externalUserId: user }, { chapters: 2 });
      const calls = await Promise.all(Array.from({ length: 6 }, () => generate(courseId)));
      for (const r of calls) {
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({
          course_id: courseId,
          total_chapters: 2,
          ready: 0,
          failed: 0,
          status: "generating",
        });
      }
      expect(
        await countRows(srv.dataDir, "SELECT count(*) AS n FROM podcast_episodes WHERE course_id = ?", courseId),
      ).toBe(2);
      expect(
        await countRows(
          srv.dataDir,
          "SELECT count(*) AS n FROM jobs WHERE type = 'podcast.episode' AND course_id = ?",
          courseId,
        ),
      ).toBe(2);

      const body = await settled(courseId);
      expect(body.count).toBe(2);
      expect(body.episodes.map((e: { chapter_order: number }) => e.chapter_order)).toEqual([0, 1]);
      for (const episode of body.episodes) {
        expect(episode).toMatchObject({ status: "ready", tts_provider: "espeak" });
        expect(episode.error).toBeUndefined();
        expect(new Set(episode.script.turns.map((t: { speaker: string }) => t.speaker))).toEqual(
          new Set(["host", "guest"]),
        );
        expect(episode.audio_url.startsWith(`${srv.url}/media/`)).toBe(true);
      }

      const episode = body.episodes[0];
      spokenCourse = { courseId, episodes: body.episodes };
      const audio = await srv.fetch(episode.audio_url);
      expect(audio.status).toBe(200);
      expect(audio.headers.get("content-type")).toBe("audio/mpeg");
      expect(audio.headers.get("accept-ranges")).toBe("bytes");
      const bytes = new Uint8Array(await audio.arrayBuffer());
      const decoded = await decodeMp3(bytes);
      expect(decoded.errors).toBe(0);
      const seconds = decoded.samples.length / decoded.sampleRate;
      expect(Math.abs(seconds - episode.duration_seconds)).toBeLessThan(0.1);
      const words = episode.script.turns.reduce((n: number, t: { text: string }) => n + t.text.split(/\s+/).length, 0);
      expect(seconds).toBeGreaterThan((words / 165) * 60 * 0.7);
      expect(seconds).toBeLessThan((words / 165) * 60 * 1.5 + episode.script.turns.length * 0.5);

      const part = await srv.fetch(episode.audio_url, { headers: { range: "bytes=100-1099" } });
      expect(part.status).toBe(206);
      expect(part.headers.get("content-range")).toBe(`bytes 100-1099/${bytes.length}`);
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(100, 1100));

      const again = await generate(courseId);
      expect(again.body).toMatchObject({ status: "already_complete", ready: 2, failed: 0, total_chapters: 2 });
      expect((await list(courseId)).headers.get("cache-control")).toContain("no-store");
    },
    SLOW,
  );

  test(
    "audio URLs are refused when tampered with or expired",
    async () => {
      const [episode] = (await spokenOrOwn()).episodes;
      const url = new URL(episode!.audio_url);

      const tampered = new URL(url);
      tampered.searchParams.set(
        "sig",
        url.searchParams.get("sig")!.replace(/^./, (c) => (c === "0" ? "1" : "0")),
      );
      const forged = await srv.fetch(tampered);
      expect(forged.status).toBe(403);
      expect(errorOf({ body: await forged.json(), headers: forged.headers }).code).toBe("MEDIA_URL_INVALID");

      const longer = new URL(url);
      longer.searchParams.set("exp", String(Number(url.searchParams.get("exp")) + 3600));
      expect((await srv.fetch(longer)).status).toBe(403);

      // Signed with the server's own secret, but by a clock two hours behind: expired an hour ago.
      const signer = createSigner(new Uint8Array(await readFile(join(srv.dataDir, "secrets", "media-signing.key"))));
      const media = (now: Date) => createMediaUrls(signer, { now: () => now });
      const cfg = { baseUrl: srv.url, mediaUrlTtlSeconds: 3600 };
      const blobKey = url.pathname.slice("/media/".length);
      const expired = await srv.fetch(media(new Date(Date.now() - 2 * 3600_000)).url(cfg, blobKey));
      expect(expired.status).toBe(403);
      expect(errorOf({ body: await expired.json(), headers: expired.headers }).code).toBe("MEDIA_URL_EXPIRED");
      expect((await srv.fetch(media(new Date()).url(cfg, blobKey))).status).toBe(200);
    },
    SLOW,
  );

  test(
    "without Piper voices, provider_a is refused at once (422) naming the files and settings; nothing is queued or billed",
    async () => {
      const courseId = await insertCourse(srv.dataDir, { apiKey: key, externalUserId: user }, { chapters: 2 });
      const usageBefore = (await call(srv, "/v2/usage", { key })).body;
      const refused = await generate(courseId, "provider_a");
      expect(refused.status).toBe(422);
      const error = errorOf(refused);
      expect(error.code).toBe("TTS_UNAVAILABLE");
      for (const part of [
        "tts_provider=provider_a",
        "en_US-ryan-medium.onnx",
        "en_US-lessac-medium.onnx.json",
        join(env.MODELS_DIR, "piper"),
        "PIPER_HOST_VOICE",
        "PIPER_GUEST_VOICE",
        "models/README.md",
        "provider_b",
      ]) {
        expect(error.message).toContain(part);
      }
      expect(error.details).toMatchObject({
        field: "tts_provider",
        engine: "piper",
        voices_dir: join(env.MODELS_DIR, "piper"),
        host_voice: "en_US-ryan-medium",
        guest_voice: "en_US-lessac-medium",
        missing: [
          "en_US-ryan-medium.onnx",
          "en_US-ryan-medium.onnx.json",
          "en_US-lessac-medium.onnx",
          "en_US-lessac-medium.onnx.json",
        ],
      });
      expect((await list(courseId)).body.count).toBe(0);
      expect(await countRows(srv.dataDir, "SELECT count(*) AS n FROM jobs WHERE course_id = ?", courseId)).toBe(0);
      expect((await call(srv, "/v2/usage", { key })).body).toEqual(usageBefore);
    },
    SLOW,
  );

  test(
    "failed episodes are generated again, keeping their id and script",
    async () => {
      // The spoken course's first episode fails; it alone is spoken again, the others kept as they were.
      const { courseId, episodes } = await spokenOrOwn();
      // As a failure during speech would leave it: status error with a reason, no audio.
      const { sqlite } = await openDb(srv.dataDir, { migrate: false });
      sqlite.run(
        `UPDATE podcast_episodes SET status = 'error', blob_key = NULL, error = '{"code":"TTS_UNAVAILABLE","message":"gone","request_id":null}' WHERE id = ?`,
        [episodes[0]!.id],
      );
      sqlite.close();
      const others = episodes.slice(1).map(() => "ready");
      expect((await list(courseId)).body.episodes.map((e: { status: string }) => e.status)).toEqual([
        "error",
        ...others,
      ]);

      const retry = await generate(courseId, "espeak");
      expect(retry.body).toMatchObject({
        status: "resuming",
        ready: others.length,
        failed: 1,
        total_chapters: episodes.length,
      });
      const done = await settled(courseId);
      expect(done.episodes).toHaveLength(episodes.length);
      for (const [i, episode] of done.episodes.entries()) {
        expect(episode).toMatchObject({ status: "ready", tts_provider: "espeak", id: episodes[i]!.id });
        expect(episode.script).toEqual(episodes[i]!.script);
        expect(episode.error).toBeUndefined();
      }
    },
    SLOW,
  );

  test(
    "without tts_provider the tenant's configured engine is used, and refused the same way when not installed",
    async () => {
      const tenantKey = await srv.createKey("initech", "test");
      const { sqlite } = await openDb(srv.dataDir, { migrate: false });
      await setTenantTtsProvider(sqliteSql(sqlite), "initech", "piper");
      sqlite.close();
      const courseId = await insertCourse(srv.dataDir, { apiKey: tenantKey, externalUserId: user }, { chapters: 1 });
      const refused = await generate(courseId, undefined, { key: tenantKey });
      expect(refused.status).toBe(422);
      expect(errorOf(refused)).toMatchObject({ code: "TTS_UNAVAILABLE", details: { engine: "piper" } });
      expect(errorOf(refused).message).toContain("tenant");
      // The request's own choice still wins over the tenant's.
      expect((await generate(courseId, "provider_b", { key: tenantKey })).status).toBe(200);
      expect((await settled(courseId, { key: tenantKey })).episodes[0]).toMatchObject({
        status: "ready",
        tts_provider: "espeak",
      });
    },
    SLOW,
  );
});

describe("restart", () => {
  test(
    "an episode in flight when the process dies is finished after the next start",
    async () => {
      // A server process: the test kills it.
      const first = await startServer({ env });
      const ownKey = await first.createKey("acme", "test");
      // One chapter: its episode is in flight at the kill, and is finished after the start.
      const courseId = await insertCourse(first.dataDir, { apiKey: ownKey, externalUserId: user }, { chapters: 1 });
      expect((await generate(courseId, "espeak", { key: ownKey, server: first })).status).toBe(200);
      await first.kill();
      expect(
        await countRows(
          first.dataDir,
          "SELECT count(*) AS n FROM podcast_episodes WHERE course_id = ? AND status = 'generating'",
          courseId,
        ),
      ).toBeGreaterThan(0);

      const second = await startApp({ env, dataDir: first.dataDir });
      try {
        const body = await settled(courseId, { key: ownKey, server: second });
        expect(body.episodes.map((e: { status: string }) => e.status)).toEqual(["ready"]);
      } finally {
        await second.stop();
      }
    },
    SLOW,
  );
});
