/**
 * Materials of a course made through the real API (from an uploaded file, extractive engine):
 * the study guide is built at completion, and ask retrieves over its chapters and its source.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDb } from "../../src/db/index.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, errorOf } from "../helpers/server.ts";
import { BIOLOGY } from "./fixtures.ts";

let srv: TestApp;
let key: string;
let courseId: string;

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("acme", "production");
  const form = new FormData();
  const text = BIOLOGY.map((c) => c.content).join("\n\n");
  form.append("files", new File([text], "cell-biology.md", { type: "text/markdown" }));
  form.append("num_chapters", "3");
  form.append("topic", "Cell biology");
  const r = await call(srv, "/v2/courses/generate-from-files?mode=sync", { key, user: "learner", body: form });
  if (r.status !== 200) throw new Error(`course generation failed: ${r.status} ${r.text}`);
  courseId = r.body.course.id;
}, 300_000);
afterAll(() => srv.stop());

describe("a generated course", () => {
  test("has its study guide from completion, before anyone asked for it", async () => {
    const { sqlite } = await openDb(srv.dataDir, { migrate: false });
    const row = sqlite
      .query<{ created_at: string; completed_at: string }, [string]>(
        "SELECT g.created_at, c.completed_at FROM study_guides g JOIN courses c ON c.id = g.course_id WHERE g.course_id = ?",
      )
      .get(courseId);
    sqlite.close();
    expect(row).not.toBeNull();
    expect(row!.created_at <= row!.completed_at).toBe(true);
    const r = await call(srv, `/v2/courses/${courseId}/study-guide`, { key, user: "learner" });
    expect(r.status).toBe(200);
    expect(r.body.study_guide.sections.length).toBeGreaterThanOrEqual(2);
    expect(r.body.created_at).toBe(row!.created_at);
  });

  test("ask finds the answer in the course with confidence", async () => {
    const r = await call(srv, `/v2/courses/${courseId}/ask`, {
      key,
      user: "learner",
      json: { question: "What is osmosis?" },
    });
    expect(r.status).toBe(200);
    expect(r.body.answer).toMatch(/osmosis/i);
    expect(r.body.sources[0].text).toMatch(/osmosis/i);
  });

  test("a one-page source cannot fill a 50-question exam beyond its quizzes: 422 saying how many it can", async () => {
    const r = await call(srv, `/v2/courses/${courseId}/generate-exam`, {
      key,
      user: "learner",
      json: { exam_size: 50 },
    });
    expect(r.status).toBe(422);
    const error = errorOf(r);
    expect(error.code).toBe("EXAM_SIZE_UNAVAILABLE");
    const { available } = error.details as { available: number };
    expect(available).toBeGreaterThan(0);
    expect(available).toBeLessThan(50);
    // It names how many questions the source gives: as the most to ask for, or, under the smallest
    // exam's 10 (this source, with its ungrammatical questions dropped), as too few for any exam.
    expect(error.message).toContain(`${available} distinct exam questions`);
    expect(error.message).toMatch(available < 10 ? /too short for an exam/ : new RegExp(`at most ${available}\\b`));
  });
});
