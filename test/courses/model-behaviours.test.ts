/**
 * How the server copes with a model that behaves as real models do (#30), through the HTTP API
 * with the model simulator (test/helpers/model-simulator.ts states each behaviour's expected
 * outcome): what a course keeps, the code it fails with, and the line the console shows for it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { consoleFailureLine } from "../helpers/console-message.ts";
import { insertCourse } from "../helpers/fixtures.ts";
import { passagesOf, REASONING_MARK, type SimBehaviour, type SimCall } from "../helpers/model-simulator.ts";
import { call, errorOf, request } from "../helpers/server.ts";
import { type SimulatedServer, startSimulatedServer } from "../helpers/simulated-server.ts";
import { filesForm, readSse } from "./helpers.ts";
import { CASTLES, LIGHT_REACTIONS } from "./sources.ts";

// Each test drives whole generations through a real server.
setDefaultTimeout(90_000);

const LIGHT = { name: "light.md", content: LIGHT_REACTIONS, type: "text/markdown" };
const CASTLE_NOTES = { name: "castles.md", content: CASTLES, type: "text/markdown" };

let ollama: SimulatedServer;

beforeAll(async () => {
  ollama = await startSimulatedServer({ env: { CHAPTER_CONCURRENCY: "1", TTS_PROVIDER: "espeak" } });
});
afterAll(() => ollama?.stop());

/** A one-chapter course from the light-reactions notes in sync mode, the model behaving as `behaviour` on chapter prompts. */
async function generate(s: SimulatedServer, behaviour: SimBehaviour, user: string, files = [LIGHT]) {
  s.sim.behave(behaviour);
  const before = s.sim.generations().length;
  const r = await call(s.srv, "/v2/courses/generate-from-files?mode=sync", {
    key: s.key,
    user,
    body: filesForm({ num_chapters: "1", search_enabled: "false" }, files),
  });
  s.sim.behave("faithful");
  const chapterCalls = s.sim
    .generations()
    .slice(before)
    .filter((c) => c.sim.chapter !== null);
  return { r, chapterCalls };
}

async function completedChapter(s: SimulatedServer, behaviour: SimBehaviour, user: string) {
  const { r, chapterCalls } = await generate(s, behaviour, user);
  expect(r.status).toBe(200);
  const course = await call(s.srv, `/v2/courses/${r.body.course.id}`, { key: s.key, user });
  expect(course.body.status).toBe("completed");
  const chapter = course.body.chapters[0];
  const paragraphs = (chapter.content as string).split(/\n\s*\n/).filter((b) => !b.startsWith("#"));
  return { chapter, paragraphs, chapterCalls, prompt: chapterCalls[0]!.sim.prompt };
}

/** A failed course: its code (never INTERNAL), the progress record that says so, and the console's line for it. */
async function failedCourse(s: SimulatedServer, behaviour: SimBehaviour, user: string, files = [LIGHT]) {
  const { r, chapterCalls } = await generate(s, behaviour, user, files);
  expect(r.status).toBe(500);
  const error = errorOf(r);
  expect(error.code).not.toBe("INTERNAL");
  const courseId = r.body.error.details.course_id as string;
  const progress = (await call(s.srv, `/v2/courses/${courseId}/progress`, { key: s.key, user })).body;
  expect(progress.course_status).toBe("failed");
  expect(progress.error).toMatchObject({ code: error.code, message: error.message });
  expect(await consoleFailureLine(progress)).toBe(`Why it failed: ${error.message} (${error.code})`);
  return { error, chapterCalls };
}

const sentencesOfPassages = (prompt: string) =>
  passagesOf(prompt)
    .flatMap((p) => p.text.split(/(?<=\.)\s+/))
    .map((s) => s.trim());

describe("what a model writes", () => {
  test("paraphrase: sentences restated with synonyms and reordered clauses are kept, every passage cited", async () => {
    const { chapter, paragraphs, chapterCalls, prompt } = await completedChapter(ollama, "paraphrase", "para");
    expect(chapterCalls).toHaveLength(1);
    const passages = passagesOf(prompt);
    expect(paragraphs).toHaveLength(passages.length);
    expect(chapter.content).toMatch(/Put simply, |In other words, /);
    // Restated, not quoted: no passage sentence stands in the chapter word for word.
    for (const s of sentencesOfPassages(prompt)) expect(chapter.content).not.toContain(s);
    expect(chapter.sources).toHaveLength(passages.length);
  });

  test("fuse: one paragraph drawn from two passages, citing both, is kept", async () => {
    const { chapter, paragraphs, prompt } = await completedChapter(ollama, "fuse", "fuse");
    const passages = passagesOf(prompt);
    expect(paragraphs).toHaveLength(Math.ceil(passages.length / 2));
    expect(chapter.sources).toHaveLength(passages.length);
  });

  test("invent: a sentence no passage holds is re-asked once, then dropped; the rest is kept", async () => {
    const { chapter, paragraphs, chapterCalls, prompt } = await completedChapter(ollama, "invent", "invent");
    expect(chapterCalls).toHaveLength(2);
    const reask = chapterCalls[1]!.body!.messages.at(-1).content as string;
    expect(reask).toMatch(/do not say ".*seventeen separate readings/);
    expect(chapter.content).not.toContain("seventeen separate readings");
    expect(paragraphs).toHaveLength(passagesOf(prompt).length);
  });

  test("miscite: paragraphs citing passages that do not say them fail the chapter with MODEL_OUTPUT_UNGROUNDED", async () => {
    // Notes on two subjects: each paragraph cites a passage of the other one.
    const { error, chapterCalls } = await failedCourse(ollama, "miscite", "miscite", [LIGHT, CASTLE_NOTES]);
    expect(error.code).toBe("MODEL_OUTPUT_UNGROUNDED");
    expect(error.message).toMatch(/^Chapter 1 \(".+"\): No paragraph of the chapter was supported/);
    expect(chapterCalls).toHaveLength(2);
  });

  test("verbose: a model ignoring the length targets keeps its text, its quiz cut to the five questions allowed", async () => {
    const { chapter, chapterCalls, prompt } = await completedChapter(ollama, "verbose", "verbose");
    expect(chapterCalls).toHaveLength(1);
    expect(chapter.quiz.questions).toHaveLength(5);
    const last = sentencesOfPassages(prompt)
      .filter((s) => s.split(" ").length >= 6)
      .at(-1)!;
    expect(chapter.content).toContain(last);
  });
});

describe("how a model wraps its answer", () => {
  test("fenced: JSON inside markdown fences is repaired without asking again", async () => {
    const { chapter, chapterCalls } = await completedChapter(ollama, "fenced", "fenced");
    expect(chapterCalls).toHaveLength(1);
    expect(chapter.content).not.toContain("```");
    expect(chapter.content).not.toContain("Here is the chapter");
  });

  test("think: a <think> block before the JSON never reaches the course; no `think` setting for a model without it", async () => {
    const { chapter, chapterCalls } = await completedChapter(ollama, "think", "think");
    expect(chapterCalls).toHaveLength(1);
    expect(chapter.content).not.toContain(REASONING_MARK);
    expect(JSON.stringify(chapter)).not.toContain("<think>");
    for (const c of chapterCalls) expect(c.body).not.toHaveProperty("think");
  });

  test("a reasoning model (Ollama capability `thinking`) is sent `think: false` and its reasoning stays out", async () => {
    const reasoner = await startSimulatedServer({ env: { LLM_MODEL: "qwen3:8b" } });
    try {
      const { chapter, chapterCalls } = await completedChapter(reasoner, "faithful", "reasoner");
      expect(chapterCalls.map((c) => [c.body!.model, c.body!.think])).toEqual([["qwen3:8b", false]]);
      expect(reasoner.sim.calls.filter((c) => c.path === "/api/show").map((c) => c.body?.model)).toEqual(["qwen3:8b"]);
      expect(chapter.content).not.toContain(REASONING_MARK);
    } finally {
      await reasoner.stop();
    }
  });

  test("truncated once: the cut-off JSON is re-asked and the second answer kept", async () => {
    ollama.sim.behave("truncated", { times: 1 });
    const { r, chapterCalls } = await (async () => {
      const before = ollama.sim.generations().length;
      const r = await call(ollama.srv, "/v2/courses/generate-from-files?mode=sync", {
        key: ollama.key,
        user: "cut-once",
        body: filesForm({ num_chapters: "1", search_enabled: "false" }, [LIGHT]),
      });
      return {
        r,
        chapterCalls: ollama.sim
          .generations()
          .slice(before)
          .filter((c) => c.sim.chapter !== null),
      };
    })();
    expect(r.status).toBe(200);
    expect(chapterCalls).toHaveLength(2);
    expect(chapterCalls[1]!.body!.messages.at(-1).content).toContain("That reply is not valid");
  });

  test("truncated always: MODEL_OUTPUT_INVALID naming the chapter after the re-asks", async () => {
    const { error, chapterCalls } = await failedCourse(ollama, "truncated", "cut");
    expect(error.code).toBe("MODEL_OUTPUT_INVALID");
    expect(error.message).toMatch(/^Chapter 1 \(".+"\): The model's reply did not match/);
    expect(chapterCalls).toHaveLength(3);
  });

  test('refuse: "I can\'t help with that" fails the chapter at once with LLM_REFUSED', async () => {
    const { error, chapterCalls } = await failedCourse(ollama, "refuse", "refuse");
    expect(error.code).toBe("LLM_REFUSED");
    expect(error.message).toMatch(/^Chapter 1 \(".+"\): The model declined/);
    expect(chapterCalls).toHaveLength(1);
  });

  test('missing model: 404 "model not found" is MODEL_NOT_FOUND with the model\'s name', async () => {
    const { error } = await failedCourse(ollama, "missing_model", "missing");
    expect(error.code).toBe("MODEL_NOT_FOUND");
    expect(error.message).toContain("llama3.2");
  });

  test("one speaker: a podcast script all in the host's voice fails the episode with PODCAST_SCRIPT_INVALID", async () => {
    const user = "listener";
    const courseId = await insertCourse(
      ollama.srv.dataDir,
      { apiKey: ollama.key, externalUserId: user },
      { chapters: 1 },
    );
    ollama.sim.behave("one_speaker", { when: (c: SimCall) => c.podcast });
    try {
      const started = await call(ollama.srv, `/v2/courses/${courseId}/podcasts/generate`, {
        key: ollama.key,
        user,
        json: {},
      });
      expect(started.status).toBe(200);
      let episode: any;
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; await Bun.sleep(100)) {
        [episode] = (
          await call(ollama.srv, `/v2/courses/${courseId}/podcasts`, { key: ollama.key, user })
        ).body.episodes;
        if (episode && episode.status !== "generating") break;
      }
      expect(episode).toMatchObject({ status: "error", error: { code: "PODCAST_SCRIPT_INVALID" } });
      expect(episode.error.message).toContain('every turn is spoken by "host"');
    } finally {
      ollama.sim.behave("faithful");
    }
  });
});

describe("a model that fails to answer", () => {
  let timing: SimulatedServer;
  beforeAll(async () => {
    timing = await startSimulatedServer({
      slowMs: 3000,
      env: { LLM_TIMEOUT_MS: "800", GENERATION_RETRIES: "0", CHAPTER_CONCURRENCY: "1" },
    });
  });
  afterAll(() => timing?.stop());

  test("slow: an answer later than LLM_TIMEOUT_MS is LLM_TIMEOUT naming the chapter", async () => {
    const { error } = await failedCourse(timing, "slow", "slow");
    expect(error.code).toBe("LLM_TIMEOUT");
    expect(error.message).toMatch(/^Chapter 1 \(".+"\): The model did not answer within 800 ms/);
  });

  test("silent: no answer at all is LLM_TIMEOUT naming the chapter", async () => {
    const { error } = await failedCourse(timing, "silent", "silent");
    expect(error.code).toBe("LLM_TIMEOUT");
    expect(error.message).toContain("Chapter 1");
  });

  test("500 on chapter 2: LLM_UNAVAILABLE in the stream naming it; resume writes chapter 2 only", async () => {
    const user = "resumer";
    timing.sim.behave("server_error", { when: (c) => c.chapter === 2 });
    const res = await request(timing.srv, "/v2/courses/generate-from-files?mode=stream", {
      method: "POST",
      headers: { "x-api-key": timing.key, "x-external-user-id": user },
      body: filesForm({ num_chapters: "2", search_enabled: "false" }, [LIGHT]),
    });
    const { events } = await readSse(res);
    const failed = events.at(-1)!;
    expect(failed.event).toBe("failed");
    expect(failed.data.error.code).toBe("LLM_UNAVAILABLE");
    expect(failed.data.error.message).toMatch(/^Chapter 2 \(".+"\): /);
    const courseId = failed.data.course_id as string;
    const progress = (await call(timing.srv, `/v2/courses/${courseId}/progress`, { key: timing.key, user })).body;
    expect(progress.chapters.map((c: any) => c.status)).toEqual(["completed", "pending"]);
    expect(await consoleFailureLine(progress)).toContain("(LLM_UNAVAILABLE)");
    const first = (await call(timing.srv, `/v2/courses/${courseId}`, { key: timing.key, user })).body.chapters[0];

    timing.sim.behave("faithful");
    const before = timing.sim.generations().length;
    const resumed = await call(timing.srv, `/v2/courses/${courseId}/resume`, { key: timing.key, user, json: {} });
    expect(resumed.body.missing_chapters).toEqual([1]);
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await Bun.sleep(100)) {
      const p = (await call(timing.srv, `/v2/courses/${courseId}/progress`, { key: timing.key, user })).body;
      if (p.course_status !== "generating") break;
    }
    const course = (await call(timing.srv, `/v2/courses/${courseId}`, { key: timing.key, user })).body;
    expect(course.status).toBe("completed");
    expect(course.chapters[0]).toEqual(first);
    const rewritten = timing.sim
      .generations()
      .slice(before)
      .flatMap((c) => (c.sim.chapter === null ? [] : [c.sim.chapter]));
    expect(rewritten).toEqual([2]);
  });
});

describe("through the OpenAI-compatible API", () => {
  let openai: SimulatedServer;
  beforeAll(async () => {
    openai = await startSimulatedServer({ api: "openai" });
  });
  afterAll(() => openai?.stop());

  test("paraphrase is kept and a <think> block never reaches the course", async () => {
    const para = await completedChapter(openai, "paraphrase", "oa-para");
    expect(para.paragraphs).toHaveLength(passagesOf(para.prompt).length);
    const think = await completedChapter(openai, "think", "oa-think");
    expect(think.chapter.content).not.toContain(REASONING_MARK);
  });

  test("refusal is LLM_REFUSED and a missing model MODEL_NOT_FOUND", async () => {
    expect((await failedCourse(openai, "refuse", "oa-refuse")).error.code).toBe("LLM_REFUSED");
    expect((await failedCourse(openai, "missing_model", "oa-missing")).error.code).toBe("MODEL_NOT_FOUND");
  });
});
