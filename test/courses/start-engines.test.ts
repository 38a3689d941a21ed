/**
 * Course creation and resume on both engines: SQLite (the server's) and PostgreSQL (a throwaway
 * cluster). A course, its usage event and its job commit in one transaction; the test-key cap is
 * reserved under its lock, so requests at the cap cannot both pass; a course has one generation
 * run at a time, and a failed run fails its course with its event in the job's last transaction.
 * The documents owner (a course's source records) is still bun:sqlite's: on PostgreSQL an empty
 * SQLite data directory stands in for it, and the courses here are topics.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deleteCourse } from "../../src/courses/delete.ts";
import { courseGenerationJob } from "../../src/courses/generate-job.ts";
import { COURSE_JOB } from "../../src/courses/progress.ts";
import { resumeCourse } from "../../src/courses/resume.ts";
import { type Requester, type StartDeps, startTopicCourse } from "../../src/courses/start.ts";
import { raw, type Sql, sql } from "../../src/db/sql.ts";
import type { AppError, FailureReason } from "../../src/errors.ts";
import { enqueueJob } from "../../src/jobs/queue.ts";
import type { Llm } from "../../src/llm/types.ts";
import { episodeBlobKeys } from "../../src/podcasts/episodes.ts";
import type { KeyEnv } from "../../src/tenants/keys.ts";
import type { User } from "../../src/tenants/users.ts";
import { saveWebhook } from "../../src/webhooks/registration.ts";
import { engineThread } from "../helpers/engine-thread.ts";
import { ENGINES, type Engine, postgresEngine } from "../helpers/engines.ts";
import { seedCourse } from "../helpers/seed-course.ts";
import { cleanup, tempDir } from "../helpers/server.ts";
import { slowWrites } from "../helpers/slow-writes.ts";

const clock = { now: () => new Date() };
const caps = { testKeyCoursesPerMonth: 5, testKeyQueriesPerMonth: 50 };

/** A model server's engine: creation checks no documents (the built-in engine would match the topic first). */
const llm = { engine: "ollama", model: "m1" } as Llm;

/** A tenant and its learner, as the auth middleware hands them to the route. */
async function requester(db: Sql, name: string, keyEnv: KeyEnv): Promise<Requester> {
  const tenantId = `${name}-${crypto.randomUUID()}`;
  const userId = crypto.randomUUID();
  const now = new Date().toISOString();
  await db.run(sql`INSERT INTO tenants (id, name, created_at) VALUES (${tenantId}, ${tenantId}, ${now})`);
  await db.run(sql`INSERT INTO users (id, tenant_id, created_at) VALUES (${userId}, ${tenantId}, ${now})`);
  return {
    auth: {
      tenantId,
      tenantName: tenantId,
      keyId: crypto.randomUUID(),
      keyEnv,
      rateLimit: null,
      rateBucket: `tenant:${tenantId}`,
      ttsProvider: null,
    },
    user: { id: userId, tenantId, learningGoal: null } as User,
    requestId: crypto.randomUUID(),
  };
}

/** Rows of `table` whose `column` (the tenant by default) is `id`, and `also` holds. */
const count = async (db: Sql, table: string, id: string, column = "tenant_id", also = sql``) =>
  Number(
    (await db.get<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${raw(table)} WHERE ${raw(column)} = ${id}${also}`))!.n,
  );

const outcomes = (results: PromiseSettledResult<unknown>[]) =>
  results.map((r) => (r.status === "fulfilled" ? "ok" : (r.reason as AppError).code)).sort();

/** Each engine's own trigger: an INSERT into jobs for this tenant fails, as a queue that cannot take the job. */
async function refuseJobsOf(db: Sql, tenantId: string): Promise<void> {
  const name = raw(`refuse_jobs_${tenantId.replaceAll("-", "_")}`);
  if (db.dialect === "sqlite") {
    await db.run(sql`CREATE TRIGGER ${name} BEFORE INSERT ON jobs WHEN NEW.tenant_id = '${raw(tenantId)}'
      BEGIN SELECT RAISE(ABORT, 'the queue refused the job'); END`);
    return;
  }
  await db.run(sql`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'the queue refused the job'; END $$`);
  await db.run(sql`CREATE TRIGGER ${name} BEFORE INSERT ON jobs
    FOR EACH ROW WHEN (NEW.tenant_id = '${raw(tenantId)}') EXECUTE FUNCTION ${name}()`);
}

/** A course whose generation failed after its first chapter: what a resume starts from. */
async function failedCourse(db: Sql, name: string) {
  const seeded = await seedCourse(db, name, 3);
  await db.run(
    sql`UPDATE courses SET status = 'failed', error = '{"code":"LLM_TIMEOUT"}' WHERE id = ${seeded.courseId}`,
  );
  await db.run(sql`UPDATE chapters SET status = 'pending' WHERE course_id = ${seeded.courseId} AND order_index > 0`);
  return seeded;
}

/** The engine's server pieces: its Sql and its address. */
function startDeps(e: Engine, dataDir: string): StartDeps {
  return {
    sql: e.db,
    databaseAddress: e.address,
    engineThread,
    llm,
    clock,
    cfg: { ...caps, searxngUrl: "", dataDir, blobDir: dataDir },
  };
}

describe.each(ENGINES)("course creation and resume on %s", (_, open) => {
  let e: Engine;
  let svc: StartDeps;
  const dataDir = tempDir("cf-start-blobs-");

  // initdb on a loaded machine takes longer than a hook's default 5 s.
  beforeAll(async () => {
    e = await open();
    svc = startDeps(e, dataDir);
  }, 120_000);
  afterAll(async () => {
    cleanup(dataDir);
    await e?.close();
  });

  test("a course commits with its usage event and its queued job", async () => {
    const who = await requester(e.db, "maker", "test");
    const job = await startTopicCourse(svc, who, { topic: "Tides", numChapters: 3, searchEnabled: false });
    expect(job).toMatchObject({
      type: COURSE_JOB.type,
      status: "queued",
      tenant_id: who.auth.tenantId,
      max_attempts: 1,
    });
    const course = await e.db.get<{ id: string; status: string; num_chapters: number; engine: string }>(
      sql`SELECT id, status, num_chapters, engine FROM courses WHERE id = ${job.course_id}`,
    );
    expect(course).toEqual({ id: job.course_id!, status: "generating", num_chapters: 3, engine: "ollama" });
    const usage = await e.db.all<{ operation: string; ref_id: string; key_env: string }>(
      sql`SELECT operation, ref_id, key_env FROM usage_events WHERE tenant_id = ${who.auth.tenantId}`,
    );
    expect(usage).toEqual([{ operation: "course", ref_id: job.course_id!, key_env: "test" }]);
  });

  test("a job the queue refuses leaves no course and no usage event", async () => {
    const who = await requester(e.db, "refused", "test");
    await refuseJobsOf(e.db, who.auth.tenantId);
    await expect(startTopicCourse(svc, who, { topic: "Tides", numChapters: 3, searchEnabled: false })).rejects.toThrow(
      "the queue refused the job",
    );
    expect(await count(e.db, "courses", who.auth.tenantId)).toBe(0);
    expect(await count(e.db, "usage_events", who.auth.tenantId)).toBe(0);
    expect(await count(e.db, "jobs", who.auth.tenantId)).toBe(0);
  });

  test("a test key's courses stop at the cap, also when requested at once; a production key is not capped", async () => {
    const who = await requester(e.db, "crowd", "test");
    const start = (w: Requester) => startTopicCourse(svc, w, { topic: "Tides", numChapters: 1, searchEnabled: false });
    const results = await Promise.allSettled(Array.from({ length: 7 }, () => start(who)));
    expect(outcomes(results)).toEqual([...Array(5).fill("ok"), ...Array(2).fill("TEST_USAGE_LIMIT")].sort());
    expect(await count(e.db, "courses", who.auth.tenantId)).toBe(5);
    expect(await count(e.db, "jobs", who.auth.tenantId)).toBe(5);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as AppError).details).toMatchObject({ used: 5, limit: 5, requested: 1 });

    const paying = await requester(e.db, "paying", "production");
    for (let i = 0; i < 6; i++) await start(paying);
    expect(await count(e.db, "jobs", paying.auth.tenantId)).toBe(6);
  });

  test("a resume queues one job for the missing chapters; a second resume is refused while it is queued", async () => {
    const c = await failedCourse(e.db, "resumer");
    const first = await resumeCourse(svc, c.owner, c.courseId, "r1");
    expect(first).toMatchObject({ status: "resuming", missing_chapters: [1, 2], total_chapters: 3 });
    const job = await e.db.get<{ id: string; status: string; payload: string }>(
      sql`SELECT id, status, payload FROM jobs WHERE course_id = ${c.courseId}`,
    );
    expect(job).toMatchObject({ id: first.job_id!, status: "queued" });
    expect(JSON.parse(job!.payload)).toEqual({ resume: true });
    expect((await e.db.get<{ status: string }>(sql`SELECT status FROM courses WHERE id = ${c.courseId}`))!.status).toBe(
      "generating",
    );
    await expect(resumeCourse(svc, c.owner, c.courseId, "r2")).rejects.toMatchObject({
      code: "COURSE_GENERATING",
      details: { job_id: first.job_id, job_status: "queued" },
    });
    const stranger = { tenantId: crypto.randomUUID(), userId: c.owner.userId };
    await expect(resumeCourse(svc, stranger, c.courseId, "r3")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  test("a failed run fails its course and queues course.failed in the transaction that ends the job", async () => {
    const c = await failedCourse(e.db, "failer");
    await e.db.run(sql`UPDATE courses SET status = 'generating', error = NULL WHERE id = ${c.courseId}`);
    await e.db.run(sql`UPDATE chapters SET status = 'running' WHERE course_id = ${c.courseId} AND order_index = 1`);
    await saveWebhook(e.db, c.owner.tenantId, { url: "https://hooks.example/failed", events: ["course.failed"] });
    const job = await enqueueJob(
      { sql: e.db, clock },
      { type: COURSE_JOB, tenantId: c.owner.tenantId, userId: c.owner.userId, courseId: c.courseId },
    );
    const { onFailure } = courseGenerationJob.handler({ clock } as Parameters<typeof courseGenerationJob.handler>[0]);
    const reason: FailureReason = { code: "LLM_TIMEOUT", message: "The model timed out", request_id: null };
    const state = async () => ({
      course: await e.db.get<{ status: string; error: string | null }>(
        sql`SELECT status, error FROM courses WHERE id = ${c.courseId}`,
      ),
      running: await count(e.db, "chapters", c.courseId, "course_id", sql` AND status = 'running'`),
      deliveries: await e.db.all<{ event: string; body: string; job_id: string }>(
        sql`SELECT event, body, job_id FROM webhook_deliveries WHERE tenant_id = ${c.owner.tenantId}`,
      ),
    });

    // The job's own end rolled back: nothing of the failure stays either.
    await expect(
      e.db.transaction(async (tx) => {
        await onFailure!(job, reason, {}, tx);
        throw new Error("the job's end was not recorded");
      }),
    ).rejects.toThrow("the job's end was not recorded");
    expect(await state()).toEqual({ course: { status: "generating", error: null }, running: 1, deliveries: [] });

    await e.db.transaction((tx) => Promise.resolve(onFailure!(job, reason, {}, tx)));
    const after = await state();
    expect(after.course).toEqual({ status: "failed", error: JSON.stringify(reason) });
    expect(after.running).toBe(0);
    expect(after.deliveries.map((d) => [d.event, JSON.parse(d.body)])).toEqual([
      ["course.failed", { event: "course.failed", data: { job_id: job.id, error: reason } }],
    ]);
    const delivery = await e.db.get<{ type: string; status: string }>(
      sql`SELECT type, status FROM jobs WHERE id = ${after.deliveries[0]!.job_id}`,
    );
    expect(delivery).toEqual({ type: "webhook.deliver", status: "queued" });
  });
});

describe("course creation and resume across PostgreSQL connections", () => {
  let e: Engine;
  let svc: StartDeps;
  const dataDir = tempDir("cf-start-blobs-");

  beforeAll(async () => {
    e = await postgresEngine();
    svc = startDeps(e, dataDir);
    // A slow tenant's usage event and a resume's job hold their transaction open a while, so a
    // second request reads the cap or the course's jobs while the first has not committed: only
    // the lock keeps it from passing too.
    await slowWrites(e.db, { table: "usage_events", on: "INSERT", seconds: 0.5, when: "NEW.tenant_id LIKE 'slow-%'" });
    await slowWrites(e.db, { table: "jobs", on: "INSERT", seconds: 0.5, when: `NEW.payload LIKE '%"resume":true%'` });
  }, 120_000);
  afterAll(async () => {
    cleanup(dataDir);
    await e?.close();
  });

  test("two courses asked at the last allowed one: one is queued, the other waits for it and is refused", async () => {
    const who = await requester(e.db, "slow", "test");
    await e.db.run(
      sql`INSERT INTO usage_events (id, tenant_id, key_env, operation, quantity, amount_micros, created_at)
          SELECT 'used-' || n || ${who.auth.tenantId}, ${who.auth.tenantId}, 'test', 'course', 1, 0, ${new Date().toISOString()}
            FROM generate_series(1, 4) AS n`,
    );
    const start = () => startTopicCourse(svc, who, { topic: "Tides", numChapters: 1, searchEnabled: false });
    expect(outcomes(await Promise.allSettled([start(), start()]))).toEqual(["TEST_USAGE_LIMIT", "ok"]);
    expect(await count(e.db, "courses", who.auth.tenantId)).toBe(1);
    expect(await count(e.db, "usage_events", who.auth.tenantId)).toBe(5);
  }, 30_000);

  test("a resume and a delete of one course at once: never a course deleted under the resume's new job", async () => {
    const c = await failedCourse(e.db, "resume-delete");
    const results = await Promise.allSettled([
      resumeCourse(svc, c.owner, c.courseId, "r"),
      deleteCourse({ db: e.db, cfg: { blobDir: dataDir } }, c.owner, c.courseId, episodeBlobKeys),
    ]);
    const codes = results.map((r) => (r.status === "fulfilled" ? "ok" : (r.reason as AppError).code));
    // Whichever locks the course first wins: the delete sees the resume's job, or the resume no course.
    expect([
      ["ok", "COURSE_BUSY"],
      ["NOT_FOUND", "ok"],
    ]).toContainEqual(codes);
    const jobs = await count(e.db, "jobs", c.courseId, "course_id");
    const courses = await count(e.db, "courses", c.courseId, "id");
    expect({ courses, jobs }).toEqual(codes[0] === "ok" ? { courses: 1, jobs: 1 } : { courses: 0, jobs: 0 });
  }, 30_000);

  test("two resumes of one course at once: one job is queued, the other resume is refused", async () => {
    const c = await failedCourse(e.db, "racer");
    const resume = (r: string) => resumeCourse(svc, c.owner, c.courseId, r);
    expect(outcomes(await Promise.allSettled([resume("a"), resume("b")]))).toEqual(["COURSE_GENERATING", "ok"]);
    expect(
      Number((await e.db.get<{ n: unknown }>(sql`SELECT count(*) AS n FROM jobs WHERE course_id = ${c.courseId}`))!.n),
    ).toBe(1);
  }, 30_000);
});
