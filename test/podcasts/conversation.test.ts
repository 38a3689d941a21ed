/**
 * Built-in (extractive) episodes of a course made from a real paper, end to end through the server:
 * the script is a conversation a listener can follow, and the MP3 is loudness-normalised speech of
 * three to eight minutes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { extractivePodcast } from "../../src/llm/extractive/podcast.ts";
import { pointsElsewhere } from "../../src/llm/extractive/text.ts";
import { measureLoudness, TARGET_LUFS } from "../../src/podcasts/audio/normalise.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, ROOT } from "../helpers/server.ts";
import { decodeMp3 } from "./fixtures/audio-analysis.ts";

const CORPUS = join(ROOT, "../shared/corpus");
const user = "listener";

interface Turn {
  speaker: "host" | "guest";
  text: string;
}
interface Episode {
  chapter_order: number;
  status: string;
  audio_url: string;
  duration_seconds: number;
  script: { turns: Turn[] };
  error?: unknown;
}
interface Chapter {
  order_index: number;
  title: string;
  content: string;
  key_concepts: string[];
}

let srv: TestApp;
let key: string;
let course: { title: string; chapters: Chapter[] };
let episodes: Episode[];
/** The ready episodes' MP3s, read before the server stops. */
const mp3s = new Map<Episode, Uint8Array>();

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("podcasts", "production");
  const form = new FormData();
  form.append(
    "files",
    new Blob([await Bun.file(join(CORPUS, "pdf/tracemonkey.pdf")).arrayBuffer()], { type: "application/pdf" }),
    "tracemonkey.pdf",
  );
  form.append("num_chapters", "2");
  const made = await call(srv, "/v2/courses/generate-from-files?mode=sync", { key, user, body: form });
  expect(made.status).toBe(200);
  const courseId: string = made.body.course.id;
  course = (await call(srv, `/v2/courses/${courseId}`, { key, user })).body;
  expect(course.chapters.length).toBe(2);

  expect(
    (await call(srv, `/v2/courses/${courseId}/podcasts/generate?tts_provider=provider_b`, { key, user, json: {} }))
      .status,
  ).toBe(200);
  // Episodes are spoken one at a time (PODCAST_CONCURRENCY), each script written as its turn comes:
  // both scripts are read, and the first episode's MP3. The second's speech, the same work again
  // (minutes of it beside other work), is cut short by the server's stop once they are read, so it
  // does not run beside the tests.
  const deadline = Date.now() + 280_000;
  for (;;) {
    const listed = await call(srv, `/v2/courses/${courseId}/podcasts`, { key, user });
    episodes = listed.body.episodes;
    if (episodes.length === 2 && episodes.every((e) => e.script) && episodes.some((e) => e.status === "ready")) break;
    if (episodes.some((e) => e.status === "error") || Date.now() > deadline)
      throw new Error(
        `episodes: ${JSON.stringify(episodes.map((e) => [e.status, e.error]))}\n${srv.output().slice(-2000)}`,
      );
    await Bun.sleep(500);
  }
  for (const e of episodes.filter((e) => e.status === "ready"))
    mp3s.set(e, new Uint8Array(await (await srv.fetch(e.audio_url)).arrayBuffer()));
  await srv.stop();
}, 300_000);

afterAll(() => srv.stop());

const guestLines = (e: Episode) => e.script.turns.filter((t) => t.speaker === "guest").map((t) => t.text);
const hostLines = (e: Episode) => e.script.turns.filter((t) => t.speaker === "host").map((t) => t.text);
/** A multi-word or single term is plural when its last word is a regular plural ("trace trees"). */
const pluralTerm = (term: string) => /[^siu]s$/i.test(term.split(" ").at(-1) ?? "");

describe("built-in episode of a chapter of the TraceMonkey paper", () => {
  test("is a conversation: both speakers, every turn a change of speaker, the host opening and the guest answering", () => {
    for (const e of episodes) {
      const turns = e.script.turns;
      expect(turns.length).toBeGreaterThanOrEqual(16);
      expect(new Set(turns.map((t) => t.speaker))).toEqual(new Set(["host", "guest"]));
      const changes = turns.slice(1).filter((t, i) => t.speaker !== turns[i]!.speaker).length;
      expect(changes / (turns.length - 1)).toBe(1);
      expect(turns[0]!.speaker).toBe("host");
      for (const t of turns) expect(t.text.trim().length).toBeGreaterThan(10);
    }
  });

  test("the host introduces the chapter, asks grammatical questions about its terms, reacts in varied words, and closes with a recap", () => {
    for (const e of episodes) {
      const chapter = course.chapters[e.chapter_order]!;
      const host = hostLines(e);
      expect(host[0]).toContain(chapter.title.replace(/[.:;,]+$/, ""));

      const questions = host.flatMap((line) => line.match(/[^.!?]*\?/g) ?? []).map((q) => q.trim());
      expect(questions.length).toBeGreaterThanOrEqual(6);
      for (const q of questions) {
        expect(q).toMatch(/^[A-Z]/);
        expect(q).not.toMatch(/exactly is|So what exactly/);
      }
      // Agreement with each key concept's number, whatever the template.
      for (const term of chapter.key_concepts) {
        const t = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        const wrong = pluralTerm(term)
          ? new RegExp(`\\b(is|does)( an?)? ${t}\\b`, "i")
          : new RegExp(`\\b(are|do) ${t}\\b`, "i");
        for (const q of questions) expect(q).not.toMatch(wrong);
      }
      // Questions are about the chapter's own terms (and sections); several name its key concepts.
      const terms = chapter.key_concepts.map((k) => k.toLowerCase());
      expect(questions.filter((q) => terms.some((k) => q.toLowerCase().includes(k))).length).toBeGreaterThanOrEqual(3);

      // Reactions: the host never says the same line twice, and opens its turns in many ways.
      expect(new Set(host).size).toBe(host.length);
      const openings = host.slice(1, -1).map((line) => line.split(/\s+/).slice(0, 2).join(" "));
      expect(new Set(openings).size).toBeGreaterThanOrEqual(Math.min(6, openings.length - 2));

      // The closing turns recap terms the host asked about.
      const closing = e.script.turns
        .slice(-4)
        .map((t) => t.text)
        .join(" ")
        .toLowerCase();
      const asked = terms.filter((k) => questions.some((q) => q.toLowerCase().includes(k)));
      expect(asked.filter((k) => closing.includes(k)).length).toBeGreaterThanOrEqual(2);
    }
  });

  test("the guest's lines stand on their own: no pointers into the paper, no citations, no authorial we", () => {
    for (const e of episodes) {
      for (const line of guestLines(e)) {
        for (const sentence of line.split(/(?<=[.!?])\s+/)) expect(pointsElsewhere(sentence)).toBe(false);
        expect(line).not.toMatch(/\b(section|figure|fig\.|table|equation|appendix|line)\s*\d/i);
        expect(line).not.toMatch(/\bthis (paper|article|work|section)\b/i);
        expect(line).not.toMatch(/\[\d+(,\s*\d+)*\]|\(\d+(,\s*\d+)*\)|\bet al\b/);
        expect(line).not.toMatch(/\b(we|our|us|ourselves)\b/i);
      }
    }
  });

  test("the script is the same every time it is written", () => {
    for (const e of episodes) {
      const chapter = course.chapters[e.chapter_order]!;
      const again = extractivePodcast({
        courseTitle: course.title,
        chapterTitle: chapter.title,
        content: chapter.content,
        key_concepts: chapter.key_concepts,
      });
      expect(again.turns).toEqual(e.script.turns);
    }
  });

  test("the MP3 lasts 3 to 8 minutes and is normalised to -16 LUFS (within 1.5 LU) without clipping", async () => {
    expect(mp3s.size).toBeGreaterThan(0);
    for (const [e, mp3] of mp3s) {
      expect(e.duration_seconds).toBeGreaterThan(180);
      expect(e.duration_seconds).toBeLessThan(480);
      const decoded = await decodeMp3(mp3);
      expect(decoded.errors).toBe(0);
      expect(Math.abs(decoded.samples.length / decoded.sampleRate - e.duration_seconds)).toBeLessThan(0.1);
      expect(Math.abs((await measureLoudness(decoded.samples, decoded.sampleRate)) - TARGET_LUFS)).toBeLessThan(1.5);
      let peak = 0;
      for (const v of decoded.samples) peak = Math.max(peak, Math.abs(v));
      expect(peak).toBeLessThan(1);
    }
  });
});
