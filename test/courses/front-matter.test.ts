/**
 * A book's front and back matter is never taught (#28). Courses built with no model from a small
 * trade book, as a PDF (cover, half-title, title page, a copyright page with no heading, a
 * dedication, contents, preface, three chapters, index) and as a Word file with a TOC field: no
 * chapter, quiz or exam question, flashcard, study-guide line or podcast line holds anything of
 * the front or back pages, and the chapters are the book's own.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, cleanup, tempDir } from "../helpers/server.ts";
import { writeStandInVoices } from "../podcasts/fixtures/fake-piper-voice.ts";
import { BOOK_TITLE, bookDocx, bookPdf, CHAPTERS, FRONT_AND_BACK } from "./book-fixtures.ts";
import { type CourseEnv, chapterCalls, courseEnv, filesForm, outlineCalls, syncCourse, waitFor } from "./helpers.ts";

const user = "reader";
/** Contents lines with their pages in the PDF or the Word file ("… Basin 8", "Preface | 2") and index entries ("seiche, 8, 9, 13"). */
const CONTENTS_OR_INDEX =
  /\b(Preface \|? ?[27]|Basin \|? ?[48]|Shore \|? ?(6|10)|Water \|? ?(8|12)|Index \|? ?14)\b|\b(seiche|basin|gust|sandbar), \d+/;

/**
 * Stand-in Piper voices speak the podcast: its lines are what is checked, and eSpeak's real speech
 * of three chapters outlasted a 4-minute wait beside other work (speech has its own tests). Its
 * three episodes run at once, so each one's script is written without waiting for another's speech.
 */
const modelsDir = tempDir("cf-front-voices-");
let env: CourseEnv;
beforeAll(async () => {
  await writeStandInVoices(modelsDir);
  env = await courseEnv({
    extractive: true,
    env: {
      MODELS_DIR: modelsDir,
      PIPER_HOST_VOICE: "host",
      PIPER_GUEST_VOICE: "guest",
      JOB_CONCURRENCY: "3",
      PODCAST_CONCURRENCY: "3",
    },
  });
}, 300_000);
afterAll(async () => {
  await env.stop();
  cleanup(modelsDir);
});

/**
 * Phrases of the front and back pages found in a text (none expected). The course's title, which
 * materials may name, is the book's title as read from its cover: it is left out of the search.
 */
const leaked = (text: string, courseTitle = "") => {
  const rest = courseTitle ? text.replaceAll(courseTitle, "") : text;
  return [
    ...FRONT_AND_BACK.filter((phrase) => rest.toLowerCase().includes(phrase.toLowerCase())),
    ...(CONTENTS_OR_INDEX.exec(rest) ?? []).slice(0, 1),
  ];
};

const bookTitles = ["Preface", ...CHAPTERS.map((c) => c.title)];
/** Each course chapter is titled by the book's own sections ("A", "A and B", "A, B and C"). */
const ownTitles = (title: string) => title.split(/, | and (?=[A-Z])/).every((t) => bookTitles.includes(t));

async function post(courseId: string, path: string, json: object) {
  const r = await call(env.srv.url, `/v2/courses/${courseId}/${path}`, { key: env.key, user, json });
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
  return r.body;
}

describe("a printed book", () => {
  let course: any;
  beforeAll(async () => {
    course = await syncCourse(
      env,
      filesForm({ num_chapters: "3" }, [{ name: "tides.pdf", content: await bookPdf(), type: "application/pdf" }]),
      user,
    );
  }, 300_000);

  test("its chapters are the book's own sections, and none holds a line of its front or back pages", () => {
    expect(course.chapters.length).toBeGreaterThanOrEqual(2);
    for (const ch of course.chapters) {
      expect(ownTitles(ch.title)).toBe(true);
      expect(leaked(`${ch.title}\n${ch.content}\n${ch.key_concepts.join("\n")}`)).toEqual([]);
      for (const s of ch.sources) expect(s.page).toBeGreaterThanOrEqual(7);
    }
    // The chapters' own text is taught.
    const taught = course.chapters.map((c: { content: string }) => c.content).join("\n");
    expect(taught).toContain("seiche");
    expect(taught).toContain("rip current");
  });

  test("no quiz or exam question, flashcard or study-guide line comes from the front or back pages", async () => {
    const quiz = course.chapters.flatMap((c: { quiz: { questions: unknown[] } }) => c.quiz.questions);
    expect(quiz.length).toBeGreaterThan(0);
    expect(leaked(JSON.stringify(quiz))).toEqual([]);

    const cards = await post(course.id, "generate-flashcards", {});
    expect(JSON.stringify(cards)).toMatch(/seiche|current/i);
    expect(leaked(JSON.stringify(cards), course.title)).toEqual([]);

    const exam = await post(course.id, "generate-exam", { exam_size: 10 });
    expect(JSON.stringify(exam)).toMatch(/seiche|current|water/i);
    expect(leaked(JSON.stringify(exam), course.title)).toEqual([]);

    const guide = await call(env.srv.url, `/v2/courses/${course.id}/study-guide`, { key: env.key, user });
    expect(guide.body.study_guide.sections.length).toBeGreaterThan(0);
    expect(leaked(JSON.stringify(guide.body.study_guide), course.title)).toEqual([]);
  }, 300_000);

  test("no podcast line comes from the front or back pages", async () => {
    const started = await call(env.srv.url, `/v2/courses/${course.id}/podcasts/generate?tts_provider=provider_a`, {
      key: env.key,
      user,
      json: {},
    });
    expect(started.status).toBe(200);
    // Its lines are what is checked: each episode's script, written before its speech is made.
    type Episode = { script: { turns: { text: string }[] } | null };
    const episodes = await waitFor(
      "every episode's script",
      async () =>
        (await call(env.srv.url, `/v2/courses/${course.id}/podcasts`, { key: env.key, user })).body
          .episodes as Episode[],
      (all) => all.length === course.chapters.length && all.every((e) => e.script !== null),
    );
    const lines = episodes.flatMap((e) => e.script!.turns.map((t) => t.text));
    expect(lines.length).toBeGreaterThan(0);
    expect(leaked(lines.join("\n"), course.title)).toEqual([]);
  }, 300_000);
});

describe("a Word book with a table of contents field", () => {
  test("its contents entries and subtitle are never taught; its chapters are its sections", async () => {
    const course = await syncCourse(
      env,
      filesForm({ num_chapters: "3" }, [{ name: "tides.docx", content: bookDocx() }]),
      user,
    );
    expect(course.title).toBe(BOOK_TITLE);
    expect(course.chapters.length).toBeGreaterThanOrEqual(2);
    for (const ch of course.chapters) {
      expect(ownTitles(ch.title)).toBe(true);
      expect(leaked(`${ch.content}\n${JSON.stringify(ch.quiz)}`)).toEqual([]);
      // No contents entry stands as a paragraph of its own.
      for (const title of bookTitles) expect(ch.content).not.toMatch(new RegExp(`^${title}\\s*(\\|\\s*\\d+)?$`, "m"));
      expect(`${ch.title}\n${ch.content}`).not.toContain("In This Guide");
    }
    const guide = await call(env.srv.url, `/v2/courses/${course.id}/study-guide`, { key: env.key, user });
    expect(leaked(JSON.stringify(guide.body.study_guide))).toEqual([]);
  }, 300_000);
});

describe("with a model", () => {
  let modelEnv: CourseEnv;
  beforeAll(async () => {
    modelEnv = await courseEnv();
  }, 300_000);
  afterAll(() => modelEnv.stop());

  test("no prompt shows the model the front or back pages as the book's text", async () => {
    const course = await syncCourse(
      modelEnv,
      filesForm({ num_chapters: "3", search_enabled: "false" }, [
        { name: "tides.pdf", content: await bookPdf(), type: "application/pdf" },
      ]),
      user,
    );
    const prompts = [...outlineCalls(modelEnv.fake!), ...chapterCalls(modelEnv.fake!)].map((c) =>
      JSON.stringify(c.body?.messages ?? c.body?.prompt),
    );
    expect(chapterCalls(modelEnv.fake!).length).toBe(course.chapters.length);
    // The chapters' own sections are what they are shown.
    expect(prompts.some((p) => p.includes("A seiche is a standing wave"))).toBe(true);
    for (const prompt of prompts) expect(leaked(prompt, course.title)).toEqual([]);
  }, 300_000);
});
