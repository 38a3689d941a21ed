/**
 * A job that takes its process down every time it runs (here: kill -9 while it runs, as an out of
 * memory kill or a native fault in a parser would) is not retried for ever: each restart counts a
 * stall, and past JOB_MAX_STALLS the job fails with JOB_STALLED and its course with it.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { openDb } from "../../src/db/index.ts";
import { waitFor } from "../courses/helpers.ts";
import { type FakeModel, startFakeModel } from "../helpers/fake-model.ts";
import { call, cleanup, startServer, type TestServer } from "../helpers/server.ts";

// Five server starts under load.
setDefaultTimeout(300_000);

const MAX_STALLS = 2;
let model: FakeModel;
let srv: TestServer | null = null;

afterAll(async () => {
  // Killed, not stopped: its jobs wait on a model that never answers.
  await srv?.kill();
  if (srv) cleanup(srv.dataDir);
  await model?.stop();
});

async function jobRow(dataDir: string, id: string) {
  const { sqlite } = await openDb(dataDir, { migrate: false });
  try {
    return sqlite
      .query<{ status: string; attempts: number; stalls: number }, [string]>(
        "SELECT status, attempts, stalls FROM jobs WHERE id = ?",
      )
      .get(id)!;
  } finally {
    sqlite.close();
  }
}

test("a job whose process dies every time it runs fails with JOB_STALLED after JOB_MAX_STALLS restarts", async () => {
  // The model never answers: every run of the course job is still running when its process is killed.
  model = startFakeModel({ env: { JOB_MAX_STALLS: String(MAX_STALLS) } });
  model.fake.behave("hang");
  srv = await startServer({ env: model.env });
  const key = await srv.createKey("acme", "production");
  const r = await call(srv.url, "/v2/courses/generate", {
    key,
    user: "ann",
    json: { topic: "Tides of the North Sea", num_chapters: 1 },
  });
  expect(r.status).toBe(202);
  const jobId: string = r.body.id;
  const jobOf = () => call(srv!.url, `/v2/jobs/${jobId}`, { key, user: "ann" });

  for (let run = 1; run <= MAX_STALLS + 1; run++) {
    const calls = model.fake.generations().length;
    await waitFor("the job running", jobOf, (j) => j.body.status === "running", 60_000, 50);
    // The run has reached the model: it is mid-work when the process dies.
    await waitFor(
      "the run's model call",
      async () => model.fake.generations().length,
      (n) => n > calls,
      60_000,
      50,
    );
    await srv.kill();
    // The crash used the attempt (only a graceful stop gives one back); stalls are counted on recovery.
    expect(await jobRow(srv.dataDir, jobId)).toEqual({ status: "running", attempts: run, stalls: run - 1 });
    srv = await startServer({ dataDir: srv.dataDir, env: model.env });
  }

  const failed = await jobOf();
  expect(failed.body.status).toBe("failed");
  expect(failed.body.attempts).toBe(MAX_STALLS + 1);
  expect(failed.body.error).toMatchObject({
    code: "JOB_STALLED",
    message: `The job's process stopped while running it ${MAX_STALLS + 1} times (JOB_MAX_STALLS is ${MAX_STALLS}); it is not run again`,
  });
  const progress = await call(srv.url, `/v2/courses/${r.body.course_id}/progress`, { key, user: "ann" });
  expect(progress.body.course_status).toBe("failed");
  expect(srv.output()).toContain('"code":"JOB_STALLED"');

  // It stays failed: the worker goes on with the next job and leaves it be.
  const next = await call(srv.url, "/v2/courses/generate", {
    key,
    user: "ann",
    json: { topic: "Glaciers and their valleys", num_chapters: 1 },
  });
  await waitFor(
    "the next job running",
    () => call(srv!.url, `/v2/jobs/${next.body.id}`, { key, user: "ann" }),
    (j) => j.body.status === "running",
  );
  expect(await jobRow(srv.dataDir, jobId)).toEqual({
    status: "failed",
    attempts: MAX_STALLS + 1,
    stalls: MAX_STALLS + 1,
  });
});
