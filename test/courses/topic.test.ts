/** Topic courses through the real server and a fake Ollama: the three modes, grounding in the learner's documents, validation, ownership, caps. */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, errorOf, request, type Target } from "../helpers/server.ts";
import { type CourseEnv, chapterCalls, courseEnv, outlineCalls, readSse, settle } from "./helpers.ts";

// Each test drives a real server through whole generations.
setDefaultTimeout(300_000);

let env: CourseEnv;
let url: Target;
let key: string;

beforeAll(async () => {
  env = await courseEnv({ latencyMs: 20, env: { CHAPTER_CONCURRENCY: "2" } });
  url = env.srv;
  key = env.key;
});
afterAll(() => env.stop());

const generate = (body: unknown, opts: { mode?: string; user?: string; key?: string } = {}) =>
  call(url, `/v2/courses/generate${opts.mode ? `?mode=${opts.mode}` : ""}`, {
    key: opts.key ?? key,
    user: opts.user ?? "ann",
    json: body,
  });

describe("async mode", () => {
  test("returns a Job at once; the job, progress and course follow it to completion", async () => {
    const r = await generate({ topic: "Photosynthesis in plants", num_chapters: 3 });
    expect(r.status).toBe(202);
    const job = r.body;
    expect(job).toMatchObject({ type: "course.generate", progress_pct: 0, error: null });
    expect(["queued", "running"]).toContain(job.status);
    expect(job.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(job.course_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(job.links.progress).toBe(`/v2/courses/${job.course_id}/progress`);

    const progress = await settle(url, key, "ann", job.course_id);
    expect(progress).toMatchObject({
      course_id: job.course_id,
      course_status: "completed",
      job_id: job.id,
      progress_pct: 100,
      expected_chapters: 3,
      completed_chapters: 3,
      error: null,
    });
    expect(progress.chapters.map((c: any) => c.order)).toEqual([0, 1, 2]);
    for (const c of progress.chapters) {
      expect(c.status).toBe("completed");
      expect(Date.parse(c.completed_at)).toBeGreaterThan(0);
    }

    for (const path of [`/v2/jobs/${job.id}`, `/jobs/${job.id}`]) {
      const j = await call(url, path, { key, user: "ann" });
      expect(j.status).toBe(200);
      expect(j.body).toMatchObject({ id: job.id, status: "completed", course_id: job.course_id, progress_pct: 100 });
    }

    const course = await call(url, `/v2/courses/${job.course_id}`, { key, user: "ann" });
    expect(course.body.status).toBe("completed");
    expect(course.body.topic).toBe("Photosynthesis in plants");
    expect(course.body.engine).toBe("ollama");
    expect(course.body.chapters).toHaveLength(3);
    for (const ch of course.body.chapters) {
      expect(ch.content.length).toBeGreaterThan(100);
      expect(ch.key_concepts.length).toBeGreaterThanOrEqual(3);
      expect(ch.quiz.questions.length).toBeGreaterThanOrEqual(3);
      for (const q of ch.quiz.questions) {
        expect(q.type).toBe("mcq");
        expect(q.answer).toBeGreaterThanOrEqual(0);
        expect(q.answer).toBeLessThan(q.choices.length);
      }
    }
    const guide = await call(url, `/v2/courses/${job.course_id}/study-guide`, { key, user: "ann" });
    expect(guide.status).toBe(200);
    expect(guide.body.study_guide.sections.length).toBeGreaterThan(0);
  });

  test("the learning goal in the body overrides the learner's saved profile in the prompts", async () => {
    const fake = env.fake!;
    expect(
      (await call(url, "/v2/users/me", { key, user: "goal", method: "PATCH", json: { learning_goal: "career" } }))
        .status,
    ).toBe(200);

    const before = fake.generations().length;
    const saved = await generate({ topic: "Cell respiration basics", num_chapters: 1 }, { user: "goal" });
    await settle(url, key, "goal", saved.body.course_id);
    const savedPrompts = fake
      .generations()
      .slice(before)
      .map((c) => JSON.stringify(c.body));
    expect(savedPrompts.some((p) => p.includes("use this at work"))).toBe(true);

    const mid = fake.generations().length;
    const override = await generate(
      { topic: "Cell respiration basics", num_chapters: 1, learning_goal: "exams" },
      { user: "goal" },
    );
    await settle(url, key, "goal", override.body.course_id);
    const prompts = fake
      .generations()
      .slice(mid)
      .map((c) => JSON.stringify(c.body));
    expect(prompts.some((p) => p.includes("pass an exam"))).toBe(true);
    expect(prompts.some((p) => p.includes("use this at work"))).toBe(false);
    const course = await call(url, `/v2/courses/${override.body.course_id}`, { key, user: "goal" });
    expect(course.body.learning_goal).toBe("exams");
  });
});

describe("sync mode", () => {
  test("blocks until the course is complete and reports usage", async () => {
    const fake = env.fake!;
    const outlinesBefore = outlineCalls(fake).length;
    const chaptersBefore = chapterCalls(fake).length;
    const r = await generate({ topic: "The water cycle", num_chapters: 2 }, { mode: "sync" });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("completed");
    expect(r.body.mode).toBe("sync");
    expect(r.body.course.chapters).toEqual([
      { order_index: 0, title: expect.any(String) },
      { order_index: 1, title: expect.any(String) },
    ]);
    expect(outlineCalls(fake).length - outlinesBefore).toBe(1);
    expect(chapterCalls(fake).length - chaptersBefore).toBe(2);
    const u = r.body.usage;
    expect(u.engine).toBe("ollama");
    expect(u.model).toBe("llama3.2");
    // Outline + 2 chapters + study guide.
    expect(u.model_calls).toBe(4);
    expect(u.prompt_tokens).toBeGreaterThan(0);
    expect(u.completion_tokens).toBeGreaterThan(0);
    expect(u.seconds).toBeGreaterThan(0);
    expect(u.billed_usd).toBe(0);
    expect(u.courses_used_this_month).toBeGreaterThanOrEqual(1);
    expect(u.courses_cap).toBeNull();
    const course = await call(url, `/v2/courses/${r.body.course.id}`, { key, user: "ann" });
    expect(course.body.status).toBe("completed");
  });

  test("a model failure is a 500 with the structured reason; the course is failed with it", async () => {
    env.fake!.behave("refuse");
    try {
      const r = await generate({ topic: "Something the model refuses", num_chapters: 2 }, { mode: "sync" });
      expect(r.status).toBe(500);
      const e = errorOf(r);
      expect(e.code).toBe("LLM_REFUSED");
      const details = e.details as { job_id: string; course_id: string };
      const progress = await call(url, `/v2/courses/${details.course_id}/progress`, { key, user: "ann" });
      expect(progress.body.course_status).toBe("failed");
      expect(progress.body.job_status).toBe("failed");
      expect(progress.body.error).toEqual({
        code: "LLM_REFUSED",
        message: expect.any(String),
        request_id: e.request_id,
      });
      const job = await call(url, `/v2/jobs/${details.job_id}`, { key, user: "ann" });
      expect(job.body.status).toBe("failed");
      expect(job.body.error.code).toBe("LLM_REFUSED");
    } finally {
      env.fake!.behave("ok");
    }
  });
});

describe("stream mode", () => {
  test("emits job, outline, chapters, progress and completed, then ends", async () => {
    const res = await request(url, `/v2/courses/generate?mode=stream`, {
      method: "POST",
      headers: { "x-api-key": key, "x-external-user-id": "ann", "content-type": "application/json" },
      body: JSON.stringify({ topic: "Plate tectonics", num_chapters: 3 }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const { events } = await readSse(res);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("job");
    expect(names[1]).toBe("outline");
    expect(names.at(-1)).toBe("completed");
    expect(names.filter((n) => n === "chapter")).toHaveLength(6);
    expect(names.filter((n) => n === "progress")).toHaveLength(3);
    const outline = events[1]!.data;
    expect(outline.chapters).toHaveLength(3);
    const completed = events.at(-1)!.data;
    expect(completed.course_id).toBe(events[0]!.data.course_id);
    expect(completed.chapters).toHaveLength(3);
    expect(completed.usage.model_calls).toBe(5);
    const pcts = events.filter((e) => e.event === "progress").map((e) => e.data.progress_pct);
    expect(pcts).toEqual([33, 66, 99]);
    for (const e of events.filter((x) => x.event === "chapter" && x.data.status === "completed")) {
      expect(Date.parse(e.data.completed_at)).toBeGreaterThan(0);
    }
  });

  test("the course keeps generating after the client disconnects", async () => {
    env.fake!.setLatency(150);
    try {
      const res = await request(url, `/v2/courses/generate?mode=stream`, {
        method: "POST",
        headers: { "x-api-key": key, "x-external-user-id": "ann", "content-type": "application/json" },
        body: JSON.stringify({ topic: "Volcanoes and their eruptions", num_chapters: 3 }),
      });
      const { events } = await readSse(res, (e) => e.event === "job");
      const courseId = events[0]!.data.course_id;
      const done = await settle(url, key, "ann", courseId);
      expect(done.course_status).toBe("completed");
      expect(done.completed_chapters).toBe(3);
    } finally {
      env.fake!.setLatency(20);
    }
  });
});

describe("grounding in the learner's documents", () => {
  test("the outline draws on the documents that cover the topic, and on none that merely share a word", async () => {
    const fake = env.fake!;
    const form = new FormData();
    const text =
      "Sourdough bread is leavened by a starter of wild yeast and lactic acid bacteria. Baking sourdough bread takes a long, cool fermentation " +
      "of the dough before it goes into a hot oven. Unlike most home cooking, bread baking rewards patience over speed.";
    form.append("files", new File([text], "sourdough.txt", { type: "text/plain" }));
    expect((await call(url, "/v2/documents/process", { key, user: "baker", body: form })).status).toBe(200);
    const outlinePrompt = async (topic: string) => {
      const before = outlineCalls(fake).length;
      const r = await generate({ topic, num_chapters: 1 }, { user: "baker" });
      expect(r.status).toBe(202);
      expect((await settle(url, key, "baker", r.body.course_id)).course_status).toBe("completed");
      return JSON.stringify(
        outlineCalls(fake)
          .slice(before)
          .map((c) => c.body),
      );
    };
    expect(await outlinePrompt("Baking sourdough bread")).toContain("wild yeast");
    // "cooking" alone is not the topic: the document says nothing of pasta.
    expect(await outlinePrompt("Introduction to cooking pasta")).not.toContain("wild yeast");
  });
});

describe("validation", () => {
  test("topic length, num_chapters range, learning goal and mode are checked", async () => {
    const bad = [
      { body: { topic: "ab" } },
      { body: { topic: "   " } },
      { body: { topic: "x".repeat(501) } },
      { body: { topic: "Valid topic", num_chapters: 0 } },
      { body: { topic: "Valid topic", num_chapters: 21 } },
      { body: { topic: "Valid topic", num_chapters: 2.5 } },
      { body: { topic: "Valid topic", learning_goal: "fun" } },
      { body: {} },
      { body: { topic: "Valid topic" }, mode: "batch" },
    ];
    for (const b of bad) {
      const r = await generate(b.body, { mode: b.mode });
      expect(r.status).toBe(422);
      expect(errorOf(r).code).toBe("VALIDATION_ERROR");
    }
    const ok = await generate({ topic: "x".repeat(500), num_chapters: 1 });
    expect(ok.status).toBe(202);
    await settle(url, key, "ann", ok.body.course_id);
  });
});

describe("ownership", () => {
  test("another learner gets 403 on the course and the job, 404 on progress and resume; another tenant 404", async () => {
    const r = await generate({ topic: "Owned course", num_chapters: 1 }, { user: "owner" });
    await settle(url, key, "owner", r.body.course_id);
    await call(url, "/v2/users", { key, json: { external_id: "intruder" } });
    const other = await env.srv.createKey("globex", "production");
    await call(url, "/v2/users", { key: other, json: { external_id: "owner" } });

    expect((await call(url, `/v2/courses/${r.body.course_id}`, { key, user: "intruder" })).status).toBe(403);
    // A job, like a course's progress, is not shown to another learner at all.
    expect((await call(url, `/v2/jobs/${r.body.id}`, { key, user: "intruder" })).status).toBe(404);
    expect((await call(url, `/v2/courses/${r.body.course_id}/progress`, { key, user: "intruder" })).status).toBe(404);
    expect(
      (await call(url, `/v2/courses/${r.body.course_id}/resume`, { key, user: "intruder", json: {} })).status,
    ).toBe(404);
    for (const path of [`/v2/jobs/${r.body.id}`, `/v2/courses/${r.body.course_id}/progress`]) {
      const res = await call(url, path, { key: other, user: "owner" });
      expect(res.status).toBe(404);
      expect(errorOf(res).code).toBe("NOT_FOUND");
    }
    expect((await call(url, `/v2/jobs/${crypto.randomUUID()}`, { key, user: "owner" })).status).toBe(404);
    expect((await call(url, `/v2/jobs/${r.body.id}`, { key })).status).toBe(422);
  });
});

describe("test-key cap", () => {
  test("the 6th course of the month on a test key is 403 TEST_USAGE_LIMIT", async () => {
    const testKey = await env.srv.createKey("capped", "test");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await generate({ topic: `Capped course ${i}`, num_chapters: 1 }, { key: testKey, user: "cap" });
      expect(r.status).toBe(202);
      ids.push(r.body.course_id);
    }
    const sixth = await generate({ topic: "One too many", num_chapters: 1 }, { key: testKey, user: "cap" });
    expect(sixth.status).toBe(403);
    expect(errorOf(sixth).code).toBe("TEST_USAGE_LIMIT");
    const list = await call(url, "/v2/courses?limit=100", { key: testKey, user: "cap" });
    expect(list.body.data).toHaveLength(5);
    for (const id of ids) await settle(url, testKey, "cap", id);
    // Production keys have no cap.
    const prod = await generate({ topic: "Uncapped course", num_chapters: 1 }, { user: "cap" });
    expect(prod.status).toBe(202);
    await settle(url, key, "cap", prod.body.course_id);
  });
});
