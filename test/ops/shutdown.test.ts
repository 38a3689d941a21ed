/** Graceful shutdown: running generation is checkpointed and finished by the next start; a second signal exits at once. */
import { afterAll, expect, test } from "bun:test";
import { openDb } from "../../src/db/index.ts";
import { settle, waitFor } from "../courses/helpers.ts";
import { startApp } from "../helpers/app.ts";
import { startFakeModel } from "../helpers/fake-model.ts";
import { call, startServer } from "../helpers/server.ts";

const model = startFakeModel({ latencyMs: 400, env: { CHAPTER_CONCURRENCY: "1", SHUTDOWN_GRACE_MS: "8000" } });
afterAll(() => model.stop());
const { env, fake } = model;

async function jobRow(dataDir: string, id: string) {
  const { sqlite } = await openDb(dataDir, { migrate: false });
  try {
    return sqlite
      .query<{ status: string; lease_owner: string | null }, [string]>(
        "SELECT status, lease_owner FROM jobs WHERE id = ?",
      )
      .get(id)!;
  } finally {
    sqlite.close();
  }
}

test("SIGTERM mid-generation hands the job back; the next start completes it without duplicate chapters", async () => {
  const srv = await startServer({ env });
  const key = await srv.createKey("shutdown-co", "production");
  const started = await call(srv.url, "/v2/courses/generate", {
    key,
    user: "u1",
    json: { topic: "Graceful shutdown of servers", num_chapters: 4 },
  });
  expect(started.status).toBe(202);
  const courseId: string = started.body.course_id;
  await waitFor(
    "a first chapter",
    () => call(srv.url, `/v2/courses/${courseId}/progress`, { key, user: "u1" }),
    (r) => r.body.completed_chapters >= 1,
  );

  // A clean exit (0) with the job queued again: the drain handed the job back rather than finish the course.
  srv.proc.kill("SIGTERM");
  expect(await srv.proc.exited).toBe(0);
  expect(srv.output()).toContain('"msg":"shutting down"');
  // Not left running under a dead process's lease: back in the queue.
  expect(await jobRow(srv.dataDir, started.body.id)).toEqual({ status: "queued", lease_owner: null });

  // The next start needs no process of its own: the server in this process finishes the job.
  const again = await startApp({ env, dataDir: srv.dataDir });
  try {
    const done = await settle(again, key, "u1", courseId);
    expect(done.course_status).toBe("completed");
    expect(done.progress_pct).toBe(100);
    const course = await call(again, `/v2/courses/${courseId}`, { key, user: "u1" });
    expect(course.body.chapters.map((c: { order_index: number }) => c.order_index)).toEqual([0, 1, 2, 3]);
    const { sqlite } = await openDb(again.dataDir, { migrate: false });
    const n = sqlite
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM chapters WHERE course_id = ?")
      .get(courseId)!.n;
    sqlite.close();
    expect(n).toBe(4);
  } finally {
    await again.stop();
  }
}, 300_000);

test("a second signal during the drain exits at once", async () => {
  fake.setLatency(3000);
  fake.calls.length = 0;
  const graceMs = 60_000;
  const srv = await startServer({ env: { ...env, SHUTDOWN_GRACE_MS: String(graceMs) } });
  try {
    const key = await srv.createKey("impatient-co", "production");
    // A sync generation keeps a request in flight, so the first signal starts a long drain.
    const inFlight = call(srv.url, "/v2/courses/generate?mode=sync", {
      key,
      user: "u2",
      json: { topic: "Waiting on a slow model", num_chapters: 2 },
    }).catch(() => null);
    // Each signal waits for the state it is meant to meet, however slow the machine: the request
    // at the model (in flight), then the drain begun.
    await waitFor(
      "the generation at the model",
      async () => fake.generations().length,
      (n) => n > 0,
      60_000,
      20,
    );
    srv.proc.kill("SIGTERM");
    await waitFor(
      "the drain",
      async () => srv.output(),
      (out) => out.includes('"msg":"shutting down"'),
      60_000,
      20,
    );
    const t0 = Date.now();
    srv.proc.kill("SIGTERM");
    // 130 is the second signal's exit, and it came before the drain's grace ran out.
    expect(await srv.proc.exited).toBe(130);
    expect(Date.now() - t0).toBeLessThan(graceMs);
    await inFlight;
  } finally {
    fake.setLatency(400);
    await srv.stop();
  }
}, 300_000);
