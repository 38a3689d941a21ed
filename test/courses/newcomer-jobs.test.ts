/**
 * Jobs, progress and usage as a newcomer reads them: podcast jobs beside a course's generation,
 * the Job resource's scope and attempts, test-key caps and usage records, resume bodies, DOCX pages.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { systemClock } from "../../src/clock.ts";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { EPISODE_JOB } from "../../src/podcasts/generate.ts";
import { REFUSAL_TEXT } from "../helpers/fake-ollama.ts";
import { call, errorOf, request, type Target } from "../helpers/server.ts";
import { corpus } from "../ingest/support.ts";
import { type CourseEnv, courseEnv, filesForm, postForm, readSse, settle } from "./helpers.ts";

setDefaultTimeout(300_000);

let env: CourseEnv;
let url: Target;
let key: string;

beforeAll(async () => {
  env = await courseEnv();
  url = env.srv;
  key = env.key;
});
afterAll(() => env.stop());

const FAR_FUTURE = new Date("2100-01-01T00:00:00Z");

/** A podcast job of the course, written straight into the server's database (never run). */
async function podcastJob(
  courseId: string,
  tenantUser: { tenantId: string; userId: string },
  status: "queued" | "failed",
) {
  const { sqlite } = await openDb(env.srv.dataDir, { migrate: false });
  try {
    const job = await enqueueJob(
      { sql: sqliteSql(sqlite), clock: systemClock },
      {
        type: EPISODE_JOB,
        ...tenantUser,
        courseId,
        runAfter: FAR_FUTURE,
        payload: { episode_id: "none" },
      },
    );
    if (status === "failed") {
      sqlite.run("UPDATE jobs SET status = 'failed', error = ?, finished_at = created_at WHERE id = ?", [
        JSON.stringify({ code: "TTS_FAILED", message: "speech failed", request_id: null }),
        job.id,
      ]);
    }
    return job.id;
  } finally {
    sqlite.close();
  }
}

async function ownerOfCourse(courseId: string) {
  const { sqlite } = await openDb(env.srv.dataDir, { migrate: false });
  try {
    const row = sqlite
      .query<{ tenant_id: string; user_id: string }, [string]>("SELECT tenant_id, user_id FROM courses WHERE id = ?")
      .get(courseId)!;
    return { tenantId: row.tenant_id, userId: row.user_id };
  } finally {
    sqlite.close();
  }
}

describe("podcast jobs beside a course", () => {
  test("progress reports the course's generation job, not a newer failed podcast job", async () => {
    const r = await call(url, "/v2/courses/generate", {
      key,
      user: "pod",
      json: { topic: "Sound of waves", num_chapters: 1 },
    });
    expect(r.status).toBe(202);
    const done = await settle(url, key, "pod", r.body.course_id);
    expect(done.course_status).toBe("completed");
    await podcastJob(r.body.course_id, await ownerOfCourse(r.body.course_id), "failed");

    const p = await call(url, `/v2/courses/${r.body.course_id}/progress`, { key, user: "pod" });
    expect(p.body).toMatchObject({
      course_status: "completed",
      job_id: r.body.id,
      job_status: "completed",
      progress_pct: 100,
      error: null,
    });
  });

  test("a failed course resumes while podcast episodes are queued", async () => {
    const fake = env.fake!;
    let failing = true;
    fake.respondWith(({ body }) =>
      failing && JSON.stringify(body.format ?? "").includes("key_concepts") ? REFUSAL_TEXT : undefined,
    );
    try {
      const r = await call(url, "/v2/courses/generate", {
        key,
        user: "pod",
        json: { topic: "Echoes in caves", num_chapters: 1 },
      });
      const failed = await settle(url, key, "pod", r.body.course_id);
      expect(failed.course_status).toBe("failed");
      const podcast = await podcastJob(r.body.course_id, await ownerOfCourse(r.body.course_id), "queued");

      const p = await call(url, `/v2/courses/${r.body.course_id}/progress`, { key, user: "pod" });
      expect(p.body).toMatchObject({ job_id: r.body.id, job_status: "failed" });

      failing = false;
      const resumed = await call(url, `/v2/courses/${r.body.course_id}/resume`, { key, user: "pod", json: {} });
      expect({ status: resumed.status, job: resumed.body?.error?.details?.job_id ?? null }).toEqual({
        status: 200,
        job: null,
      });
      expect(resumed.body.status).toBe("resuming");
      expect(resumed.body.job_id).not.toBe(podcast);
      const done = await settle(url, key, "pod", r.body.course_id);
      expect(done).toMatchObject({ course_status: "completed", job_id: resumed.body.job_id, job_status: "completed" });
    } finally {
      fake.respondWith(null);
    }
  });
});

describe("GET /v2/jobs/{id}", () => {
  test("the learner's own job only; attempts counts the run", async () => {
    await call(url, "/v2/users", { key, json: { external_id: "bystander" } });
    const r = await call(url, "/v2/courses/generate", {
      key,
      user: "runner",
      json: { topic: "Counting the runs", num_chapters: 1 },
    });
    await settle(url, key, "runner", r.body.course_id);

    for (const path of [`/v2/jobs/${r.body.id}`, `/jobs/${r.body.id}`]) {
      const own = await call(url, path, { key, user: "runner" });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ id: r.body.id, status: "completed", attempts: 1 });

      const other = await call(url, path, { key, user: "bystander" });
      expect(other.status).toBe(404);
      expect(errorOf(other).code).toBe("NOT_FOUND");

      const anonymous = await call(url, path, { key });
      expect(anonymous.status).toBe(422);
      expect(errorOf(anonymous).code).toBe("USER_REQUIRED");
    }
  });
});

describe("usage", () => {
  test("a refused multi-course request states the courses actually used", async () => {
    const testKey = await env.srv.createKey("acme-trial", "test");
    for (let i = 0; i < 4; i++) {
      const r = await call(url, "/v2/courses/generate", {
        key: testKey,
        user: "trial",
        json: { topic: `Trial course ${i}`, num_chapters: 1 },
      });
      expect(r.status).toBe(202);
      await settle(url, testKey, "trial", r.body.course_id);
    }
    const form = filesForm({ organization: "separate_courses", num_chapters: "1", search_enabled: "false" }, [
      { name: "a.txt", content: "Light is absorbed by chlorophyll in the leaves of plants.", type: "text/plain" },
      { name: "b.txt", content: "Castles were built with thick stone walls for defence.", type: "text/plain" },
    ]);
    const refused = await postForm(url, "/v2/courses/generate-from-files", testKey, "trial", form);
    expect(refused.status).toBe(403);
    const err = errorOf(refused);
    expect(err.code).toBe("TEST_USAGE_LIMIT");
    expect(err.message).toContain("used 4 of its 5 courses");
    expect(err.message).toContain("this request needs 2");
    expect(err.details).toMatchObject({ used: 4, limit: 5, requested: 2 });

    const usage = await call(url, "/v2/usage", { key: testKey });
    expect(usage.body.test_key_limits.courses).toEqual({ used: 4, limit: 5 });
    // One more single course still fits; then the cap message counts five.
    const fifth = await call(url, "/v2/courses/generate", {
      key: testKey,
      user: "trial",
      json: { topic: "Trial course five", num_chapters: 1 },
    });
    expect(fifth.status).toBe(202);
    await settle(url, testKey, "trial", fifth.body.course_id);
    const sixth = await call(url, "/v2/courses/generate", {
      key: testKey,
      user: "trial",
      json: { topic: "Trial course six", num_chapters: 1 },
    });
    expect(errorOf(sixth).message).toContain("used 5 of its 5 courses");
  });

  test("a production key has no test-key caps", async () => {
    const usage = await call(url, "/v2/usage", { key });
    expect(usage.status).toBe(200);
    expect(usage.body.test_key_limits).toBeNull();
  });

  test("the stream's completed event carries the same usage record as sync mode", async () => {
    const sync = await call(url, "/v2/courses/generate?mode=sync", {
      key,
      user: "meter",
      json: { topic: "Tides and the moon", num_chapters: 1 },
    });
    expect(sync.status).toBe(200);

    const res = await request(url, `/v2/courses/generate?mode=stream`, {
      method: "POST",
      headers: { "x-api-key": key, "x-external-user-id": "meter", "content-type": "application/json" },
      body: JSON.stringify({ topic: "Tides and the sun", num_chapters: 1 }),
    });
    const { events } = await readSse(res);
    const completed = events.find((e) => e.event === "completed")!;
    expect(Object.keys(completed.data.usage).sort()).toEqual(Object.keys(sync.body.usage).sort());
    for (const u of [sync.body.usage, completed.data.usage]) {
      expect(u).toMatchObject({ engine: "ollama", courses_cap: null, billed_usd: 0 });
      expect(u.model_calls).toBeGreaterThan(0);
      expect(u.seconds).toBeGreaterThan(0);
    }
    expect(completed.data.usage.courses_used_this_month).toBe(sync.body.usage.courses_used_this_month + 1);
  });
});

describe("resume bodies", () => {
  // Pending: the app-wide JSON parser (src/http/app.ts onParse) runs before the route's own
  // parser and answers 422 INVALID_BODY to a JSON content type with a body that is not an object.
  test("the body is ignored: invalid JSON, another type or none at all", async () => {
    const r = await call(url, "/v2/courses/generate?mode=sync", {
      key,
      user: "body",
      json: { topic: "Ignored bodies", num_chapters: 1 },
    });
    const path = `/v2/courses/${r.body.course.id}/resume`;
    const bodies: { body?: string; type?: string }[] = [
      { body: "not json", type: "application/json" },
      { body: "", type: "application/json" },
      { body: "[1, 2]", type: "application/json" },
      { body: "resume please", type: "text/plain" },
      {},
    ];
    const answers = [];
    for (const b of bodies) {
      const res = await call(url, path, {
        method: "POST",
        key,
        user: "body",
        body: b.body,
        headers: b.type ? { "content-type": b.type } : {},
      });
      answers.push({ ...b, status: res.status, resume: res.body?.status });
    }
    expect(answers).toEqual(bodies.map((b) => ({ ...b, status: 200, resume: "completed" })));
  });
});

describe("extract", () => {
  test("a DOCX is 1 page whatever page count Word saved in it", async () => {
    const form = new FormData();
    // Its docProps/app.xml says <Pages>2</Pages>.
    form.append(
      "files",
      new File([await Bun.file(corpus("docx/docling-word_sample.docx")).bytes()], "word_sample.docx"),
    );
    const r = await call(url, "/v2/documents/extract", { method: "POST", key, body: form });
    expect(r.status).toBe(200);
    const [doc] = r.body.documents;
    expect(doc).toMatchObject({ status: "ready", pages: 1, billed_amount_usd: 0.001 });
  });
});
