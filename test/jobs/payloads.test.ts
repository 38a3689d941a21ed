/**
 * Job payloads are checked against their type's schema: enqueueing one that does not fit throws
 * (a bug in the caller), and a stored payload that no longer fits fails its job with the reason
 * while the worker goes on with the next job.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { systemClock } from "../../src/clock.ts";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { EPISODE_JOB } from "../../src/podcasts/generate.ts";
import { DELIVERY_JOB } from "../../src/webhooks/events.ts";
import { type CourseEnv, courseEnv, settle, waitFor } from "../courses/helpers.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, tempDir } from "../helpers/server.ts";

setDefaultTimeout(300_000);

describe("enqueueing", () => {
  test("a payload that does not fit its job type's schema throws and queues nothing", async () => {
    const { sqlite } = await openDb(tempDir("cf-jobs-"));
    try {
      const wrongType = { episode_id: 42 } as unknown as { episode_id: string };
      const queue = { sql: sqliteSql(sqlite), clock: systemClock };
      await expect(enqueueJob(queue, { type: EPISODE_JOB, payload: wrongType })).rejects.toThrow(
        "Invalid payload for job type podcast.episode: /episode_id: Expected string",
      );
      const unknownField = { delivery_id: "d1", extra: true } as { delivery_id: string };
      await expect(enqueueJob(queue, { type: DELIVERY_JOB, payload: unknownField })).rejects.toThrow(
        "Invalid payload for job type webhook.deliver",
      );
      expect(sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs").get()!.n).toBe(0);

      const ok = await enqueueJob(queue, { type: EPISODE_JOB, payload: { episode_id: "e1" } });
      expect(JSON.parse(ok.payload)).toEqual({ episode_id: "e1" });
      expect(ok.type).toBe("podcast.episode");
    } finally {
      sqlite.close();
    }
  });
});

describe("a stored payload that no longer fits", () => {
  let srv: TestApp | null = null;
  let env: CourseEnv | null = null;
  afterAll(async () => {
    await srv?.stop();
    await env?.stop();
  });

  test("fails its job with the reason; the worker runs the next job", async () => {
    env = await courseEnv();
    const { url } = env.srv;
    const courses: string[] = [];
    const jobs: string[] = [];
    for (const topic of ["Tides of the North Sea", "Glaciers and their valleys"]) {
      const r = await call(url, "/v2/courses/generate", {
        key: env.key,
        user: "ann",
        json: { topic, num_chapters: 1 },
      });
      expect(r.status).toBe(202);
      expect((await settle(url, env.key, "ann", r.body.course_id)).course_status).toBe("completed");
      courses.push(r.body.course_id);
      jobs.push(r.body.id);
    }
    const dataDir = env.srv.dataDir;
    await env.srv.stop({ keepData: true });

    // While the server is stopped: both jobs queued again, the first with a payload its schema
    // refuses (and queued first), the second as enqueued.
    const db = new Database(join(dataDir, "courseforge.db"));
    const requeue = db.query(
      `UPDATE jobs SET status = 'queued', payload = ?, attempts = 0, error = NULL, result = NULL,
              finished_at = NULL, run_after = ? WHERE id = ?`,
    );
    requeue.run('{"resume":"tomorrow"}', "2000-01-01T00:00:00.000Z", jobs[0]!);
    requeue.run("{}", "2000-01-01T00:00:01.000Z", jobs[1]!);
    db.close();

    srv = await startApp({ dataDir, env: { ...env.env, JOB_CONCURRENCY: "1" } });
    const jobOf = (id: string) => call(srv!, `/v2/jobs/${id}`, { key: env!.key, user: "ann" });
    const broken = await waitFor(
      "the corrupted job",
      () => jobOf(jobs[0]!),
      (r) => r.body.status === "failed",
    );
    expect(broken.body.error.code).toBe("JOB_PAYLOAD_INVALID");
    expect(broken.body.error.message).toBe(
      "The stored payload of this course.generate job is invalid (/resume: Expected boolean)",
    );
    // One run only: it is not retried, since a retry would read the same payload.
    expect(broken.body.attempts).toBe(1);

    const next = await waitFor(
      "the next job",
      () => jobOf(jobs[1]!),
      (r) => r.body.status === "completed",
    );
    expect(next.body.error).toBeNull();
    // The job's domain recorded the failure: its course is failed with the same reason.
    const course = await call(srv, `/v2/courses/${courses[0]}/progress`, { key: env!.key, user: "ann" });
    expect(course.body.course_status).toBe("failed");
    expect(srv.output()).toContain('"code":"JOB_PAYLOAD_INVALID"');
    expect((await call(srv, "/health")).status).toBe(200);
  });
});
