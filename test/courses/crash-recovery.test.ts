/** SIGKILL mid-generation, restart on the same data: the job resumes on its own and completes. */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { openDb } from "../../src/db/index.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type FakeModel, startFakeModel } from "../helpers/fake-model.ts";
import { call, startServer, type TestServer } from "../helpers/server.ts";
import { chapterCalls, settle, waitFor } from "./helpers.ts";

// Each test drives a real server through whole generations.
setDefaultTimeout(300_000);

let model: FakeModel;
let srv: TestServer | null = null;
let restarted: TestApp | null = null;

afterAll(async () => {
  await restarted?.stop();
  await srv?.stop();
  await model?.stop();
});

test("a course killed mid-generation resumes after restart, with no chapter written twice", async () => {
  // A server process: the test kills it.
  model = startFakeModel({ latencyMs: 300, env: { CHAPTER_CONCURRENCY: "2" } });
  const { env, fake } = model;
  srv = await startServer({ env });
  const key = await srv.createKey("acme", "production");
  const r = await call(srv.url, "/v2/courses/generate", {
    key,
    user: "kim",
    json: { topic: "Surviving a crash", num_chapters: 6 },
  });
  expect(r.status).toBe(202);
  const courseId = r.body.course_id;

  const mid = await waitFor(
    "two committed chapters",
    () => call(srv!.url, `/v2/courses/${courseId}/progress`, { key, user: "kim" }),
    (p) => p.body.completed_chapters >= 2,
    120_000,
    25,
  );
  await srv.kill();
  const { sqlite } = await openDb(srv.dataDir, { migrate: false });
  const atKill = sqlite
    .query<{ order_index: number; status: string; completed_at: string | null }, [string]>(
      "SELECT order_index, status, completed_at FROM chapters WHERE course_id = ? ORDER BY order_index",
    )
    .all(courseId);
  const jobAtKill = sqlite.query<{ status: string }, [string]>("SELECT status FROM jobs WHERE id = ?").get(r.body.id)!;
  sqlite.close();
  const committed = atKill.filter((c) => c.status === "completed");
  expect(committed.length).toBeGreaterThanOrEqual(mid.body.completed_chapters);
  expect(committed.length).toBeLessThan(6);
  expect(jobAtKill.status).toBe("running");

  // In-flight replies of the killed process may still arrive at the fake; count from the restart.
  await Bun.sleep(350);
  const callsBefore = chapterCalls(fake).length;
  // The restart needs no process of its own: the server in this process resumes the job.
  const again = await startApp({ env, dataDir: srv.dataDir });
  restarted = again;
  const done = await settle(again, key, "kim", courseId);
  expect(done.course_status).toBe("completed");
  expect(done.progress_pct).toBe(100);
  expect(done.job_id).toBe(r.body.id);
  expect(done.chapters.map((c: any) => c.order)).toEqual([0, 1, 2, 3, 4, 5]);
  for (const c of committed) expect(done.chapters[c.order_index].completed_at).toBe(c.completed_at);
  expect(chapterCalls(fake).length - callsBefore).toBe(6 - committed.length);
  expect(again.output()).toContain("resuming interrupted jobs");

  const job = await call(again, `/v2/jobs/${r.body.id}`, { key, user: "kim" });
  expect(job.body.status).toBe("completed");
  const course = await call(again, `/v2/courses/${courseId}`, { key, user: "kim" });
  expect(course.body.chapters).toHaveLength(6);
  for (const ch of course.body.chapters) expect(ch.quiz.questions.length).toBeLessThanOrEqual(5);
});
