/**
 * The podcast feed as a podcast client uses it: Debian's podget subscribes to the feed URL and
 * downloads every episode; a revoked feed is 404, and the feed token opens nothing else.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../src/db/index.ts";
import { call, errorOf } from "../helpers/server.ts";
import { type ExportCourseEnv, exportCourse } from "./course.ts";

let env: ExportCourseEnv;

beforeAll(async () => {
  env = await exportCourse();
}, 600_000);
afterAll(() => env.stop());

const feed = (method: "POST" | "DELETE", user = env.user) =>
  call(env.srv, `/v2/courses/${env.courseId}/podcasts/feed`, {
    method,
    key: env.key,
    user,
    ...(method === "POST" ? { json: {} } : {}),
  });
const episodes = async () =>
  (await call(env.srv, `/v2/courses/${env.courseId}/podcasts`, { key: env.key, user: env.user })).body.episodes;

/**
 * Runs podget on one feed URL with its own config and library folders; returns the downloaded files.
 * Spawned without blocking: the server answering podget runs in this process.
 */
async function podget(feedUrl: string): Promise<Map<string, Buffer>> {
  const root = mkdtempSync(join(tmpdir(), "cf-podget-"));
  const config = join(root, "config");
  const library = join(root, "library");
  const created = Bun.spawnSync(["podget", "-d", config, "--create-config", "podgetrc"], {
    env: { ...process.env, HOME: root },
  });
  expect(created.exitCode).toBe(0);
  writeFileSync(join(config, "serverlist"), `${feedUrl} Courses CellBiology\n`);
  const run = Bun.spawn(["podget", "-d", config, "-l", library, "-n", "--verbosity", "2"], {
    env: { ...process.env, HOME: root },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, out, err] = await Promise.all([
    run.exited,
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
  ]);
  if (code !== 0) throw new Error(`podget failed: ${out}${err}`);
  const dir = join(library, "Courses", "CellBiology");
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));
}

describe("podcast feed", () => {
  test("POST creates the feed (201), returns the same URL again (200); another learner's course is 404", async () => {
    const first = await feed("POST");
    expect(first.status).toBe(201);
    expect(first.body.feed_url).toMatch(new RegExp(`^${env.srv.url}/feeds/[0-9a-f]{32}[A-Za-z0-9_-]{43}/rss$`));
    const again = await feed("POST");
    expect(again.status).toBe(200);
    expect(again.body.feed_url).toBe(first.body.feed_url);
    expect((await feed("POST", "someone-else")).status).toBe(404);
    expect((await feed("DELETE", "someone-else")).status).toBe(404);
  });

  test("RSS 2.0 with enclosures (length, type), durations and stable GUIDs; podget downloads every episode", async () => {
    const { feed_url } = (await feed("POST")).body;
    const res = await env.srv.fetch(feed_url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/rss+xml");
    const xml = await res.text();
    const list = await episodes();
    expect(xml).toContain('<rss version="2.0"');
    // The title as written: markup escaped, and its entity-like text (&#0;, &xxe;, &lt;b&gt;) kept as text.
    expect(xml).toContain(
      `<title>Cell biology &lt;script&gt;alert("x")&lt;/script&gt; &amp; ../../etc/passwd &amp;#0; &amp;xxe; &amp;lt;b&amp;gt;</title>`,
    );
    const items = xml.split("<item>").slice(1);
    expect(items).toHaveLength(list.length);
    for (const [i, e] of list.entries()) {
      const item = items[i]!;
      const enclosure = /<enclosure url="([^"]+)" length="(\d+)" type="audio\/mpeg"\/>/.exec(item)!;
      expect(enclosure).not.toBeNull();
      const audio = await env.srv.fetch(enclosure[1]!);
      expect(audio.status).toBe(200);
      const bytes = new Uint8Array(await audio.arrayBuffer());
      expect(Number(enclosure[2])).toBe(bytes.length);
      const seconds = Math.round(e.duration_seconds);
      expect(item).toContain(
        `<itunes:duration>${new Date(seconds * 1000).toISOString().slice(11, 19)}</itunes:duration>`,
      );
      expect(item).toMatch(/<guid isPermaLink="false">courseforge:podcast:[0-9a-f-]{36}:[0-9a-f-]{36}<\/guid>/);
      const part = await env.srv.fetch(enclosure[1]!, { headers: { range: "bytes=10-19" } });
      expect(part.status).toBe(206);
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(10, 20));
    }

    const downloaded = await podget(feed_url);
    expect(downloaded.size).toBe(list.length);
    const originals = await Promise.all(
      list.map(async (e: { audio_url: string }) => Buffer.from(await (await env.srv.fetch(e.audio_url)).arrayBuffer())),
    );
    for (const original of originals) expect([...downloaded.values()].some((d) => d.equals(original))).toBe(true);
  }, 300_000);

  test("an episode generated again keeps its GUID", async () => {
    const { feed_url } = (await feed("POST")).body;
    const guids = (xml: string) => [...xml.matchAll(/<guid[^>]*>([^<]+)<\/guid>/g)].map((m) => m[1]);
    const before = guids(await (await env.srv.fetch(feed_url)).text());
    const { sqlite } = await openDb(env.srv.dataDir, { migrate: false });
    const first = (await episodes())[0];
    sqlite.run(
      `UPDATE podcast_episodes SET status = 'error', error = '{"code":"TTS_UNAVAILABLE","message":"gone","request_id":null}' WHERE id = ?`,
      [first.id],
    );
    sqlite.close();
    expect(guids(await (await env.srv.fetch(feed_url)).text())).toEqual(before.slice(1));
    expect(
      (
        await call(env.srv, `/v2/courses/${env.courseId}/podcasts/generate?tts_provider=provider_a`, {
          key: env.key,
          user: env.user,
          json: {},
        })
      ).status,
    ).toBe(200);
    const deadline = Date.now() + 240_000;
    while ((await episodes()).some((e: { status: string }) => e.status !== "ready")) {
      if (Date.now() > deadline) throw new Error("episode not regenerated");
      await Bun.sleep(200);
    }
    expect(guids(await (await env.srv.fetch(feed_url)).text())).toEqual(before);
  }, 300_000);

  test("the feed token opens nothing else, and a revoked feed and its audio are 404", async () => {
    const { feed_url } = (await feed("POST")).body;
    const token = new URL(feed_url).pathname.split("/")[2]!;
    const audioUrl = /<enclosure url="([^"]+)"/.exec(await (await env.srv.fetch(feed_url)).text())![1]!;
    // Not an API key, nor a media signature.
    const asKey = await call(env.srv, `/v2/courses/${env.courseId}/podcasts`, { key: token, user: env.user });
    expect(asKey.status).toBe(401);
    expect(
      (await call(env.srv, `/v2/courses/${env.courseId}/export?format=markdown`, { key: token, user: env.user }))
        .status,
    ).toBe(401);
    const blobUrl = new URL((await episodes())[0].audio_url);
    expect((await env.srv.fetch(`${blobUrl.pathname}?sig=${token}`)).status).toBe(403);
    // A forged token (same id, other MAC) is refused.
    expect((await env.srv.fetch(feed_url.replace(token, `${token.slice(0, 32)}${"A".repeat(43)}`))).status).toBe(404);

    const revoked = await feed("DELETE");
    expect(revoked.status).toBe(204);
    const gone = await env.srv.fetch(feed_url);
    expect(gone.status).toBe(404);
    expect(errorOf({ body: await gone.json(), headers: gone.headers }).code).toBe("NOT_FOUND");
    expect((await env.srv.fetch(audioUrl)).status).toBe(404);
    expect((await feed("DELETE")).status).toBe(404);

    const renewed = await feed("POST");
    expect(renewed.status).toBe(201);
    expect(renewed.body.feed_url).not.toBe(feed_url);
    expect((await env.srv.fetch(renewed.body.feed_url)).status).toBe(200);
    expect((await env.srv.fetch(feed_url)).status).toBe(404);
  });
});
