/** Progress rules while a course is built, and resume after a failure injected mid-course. */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { REFUSAL_TEXT } from "../helpers/fake-ollama.ts";
import { call, errorOf, type Target } from "../helpers/server.ts";
import { type CourseEnv, chapterCalls, courseEnv, progressOf, settle } from "./helpers.ts";

// Each test drives a real server through whole generations.
setDefaultTimeout(300_000);

let env: CourseEnv;
let url: Target;
let key: string;

beforeAll(async () => {
  env = await courseEnv({ env: { CHAPTER_CONCURRENCY: "1", LLM_TIMEOUT_MS: "1500" } });
  url = env.srv;
  key = env.key;
});
afterAll(() => env.stop());

describe("progress", () => {
  test("ratio while chapters land, 99 while the study guide is pending, 100 only when completed", async () => {
    env.fake!.setLatency(500);
    try {
      const r = await call(url, "/v2/courses/generate", {
        key,
        user: "pat",
        json: { topic: "Progress watching", num_chapters: 2 },
      });
      const samples: any[] = [];
      for (;;) {
        const p = (await progressOf(url, key, "pat", r.body.course_id)).body;
        samples.push(p);
        if (p.course_status !== "generating") break;
        await Bun.sleep(50);
      }
      const final = samples.at(-1);
      expect(final.course_status).toBe("completed");
      expect(final.progress_pct).toBe(100);
      expect(final.job_status === "completed" || final.job_status === "running").toBe(true);

      // A chapter in flight is shown running, and the ratio moves with commits.
      expect(samples.some((s) => s.chapters.some((c: any) => c.status === "running"))).toBe(true);
      expect(samples.some((s) => s.completed_chapters === 1 && s.progress_pct === 50)).toBe(true);
      // Every chapter committed, study guide not yet: 99, still generating.
      const waitingForGuide = samples.filter((s) => s.completed_chapters === 2 && s.course_status === "generating");
      expect(waitingForGuide.length).toBeGreaterThan(0);
      for (const s of waitingForGuide) expect(s.progress_pct).toBe(99);
      for (const s of samples) {
        if (s.course_status === "generating") expect(s.progress_pct).toBeLessThan(100);
        expect(s.expected_chapters).toBe(2);
      }
      const pcts = samples.map((s) => s.progress_pct);
      expect(pcts).toEqual([...pcts].sort((a, b) => a - b));
    } finally {
      env.fake!.setLatency(0);
    }
  });
});

describe("automatic retries", () => {
  test("a model call that times out is retried and the course still completes", async () => {
    const fake = env.fake!;
    const before = fake.generations().length;
    // The outline call hangs past LLM_TIMEOUT_MS once; the retry gets an answer.
    fake.behave("hang", 1);
    const r = await call(url, "/v2/courses/generate?mode=sync", {
      key,
      user: "pat",
      json: { topic: "Patience pays", num_chapters: 2 },
    });
    expect(r.status).toBe(200);
    expect(r.body.course.chapters).toHaveLength(2);
    // Outline (twice), two chapters, the study guide.
    expect(fake.generations().length - before).toBe(5);
    expect(env.srv.output()).toContain("generation step failed; retrying");
  });
});

describe("resume", () => {
  test("after a failure mid-course only the missing chapters are written, once each", async () => {
    const fake = env.fake!;
    let chapterReplies = 0;
    let failing = true;
    fake.respondWith(({ body }) => {
      if (!JSON.stringify(body.format ?? "").includes("key_concepts")) return undefined;
      chapterReplies += 1;
      // Chapters 1 and 2 are written; from the third on, the model refuses until told otherwise.
      return failing && chapterReplies > 2 ? REFUSAL_TEXT : undefined;
    });
    try {
      const r = await call(url, "/v2/courses/generate", {
        key,
        user: "res",
        json: { topic: "Resumable course", num_chapters: 5 },
      });
      const failed = await settle(url, key, "res", r.body.course_id);
      expect(failed.course_status).toBe("failed");
      expect(failed.job_status).toBe("failed");
      expect(failed.error.code).toBe("LLM_REFUSED");
      expect(failed.completed_chapters).toBe(2);
      expect(failed.progress_pct).toBe(40);
      expect(failed.chapters.map((c: any) => c.status)).toEqual([
        "completed",
        "completed",
        "pending",
        "pending",
        "pending",
      ]);
      const committedAt = failed.chapters.slice(0, 2).map((c: any) => c.completed_at);

      failing = false;
      fake.setLatency(150);
      const before = chapterCalls(fake).length;
      const resumed = await call(url, `/v2/courses/${r.body.course_id}/resume`, { key, user: "res", json: {} });
      expect(resumed.status).toBe(200);
      expect(resumed.body).toMatchObject({
        course_id: r.body.course_id,
        status: "resuming",
        missing_chapters: [2, 3, 4],
        total_chapters: 5,
      });
      expect(resumed.body.message.length).toBeGreaterThan(0);

      const again = await call(url, `/v2/courses/${r.body.course_id}/resume`, { key, user: "res", json: {} });
      expect(again.status).toBe(409);
      expect(errorOf(again).code).toBe("COURSE_GENERATING");

      const done = await settle(url, key, "res", r.body.course_id);
      expect(done.course_status).toBe("completed");
      expect(done.progress_pct).toBe(100);
      expect(done.job_id).toBe(resumed.body.job_id);
      expect(done.chapters.map((c: any) => c.order)).toEqual([0, 1, 2, 3, 4]);
      expect(done.chapters.slice(0, 2).map((c: any) => c.completed_at)).toEqual(committedAt);
      expect(chapterCalls(fake).length - before).toBe(3);

      const course = await call(url, `/v2/courses/${r.body.course_id}`, { key, user: "res" });
      expect(course.body.chapters).toHaveLength(5);
      expect(new Set(course.body.chapters.map((c: any) => c.id)).size).toBe(5);

      const noop = await call(url, `/v2/courses/${r.body.course_id}/resume`, { key, user: "res", json: {} });
      expect(noop.status).toBe(200);
      expect(noop.body).toMatchObject({ status: "completed", missing_chapters: [], total_chapters: 5 });
    } finally {
      fake.respondWith(null);
      fake.setLatency(0);
    }
  });

  test("resume of an unknown course is 404", async () => {
    const r = await call(url, `/v2/courses/${crypto.randomUUID()}/resume`, { key, user: "res", json: {} });
    expect(r.status).toBe(404);
    expect(errorOf(r).code).toBe("NOT_FOUND");
  });
});
