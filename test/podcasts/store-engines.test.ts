/**
 * The podcasts owner's storage (podcast_episodes) on both engines: SQLite (the server's) and
 * PostgreSQL (a throwaway cluster). Generating claims each chapter's episode once: requests at
 * once queue one job per episode, a ready episode is left alone and a failed one is queued again,
 * once. On PostgreSQL across connections that single flight is held by the seam's lock.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { lockCourse } from "../../src/courses/read.ts";
import { type Sql, sql } from "../../src/db/sql.ts";
import { courseEpisodes, getEpisode } from "../../src/podcasts/episodes.ts";
import { claimEpisodes } from "../../src/podcasts/generate.ts";
import { ENGINES, type Engine, postgresEngine } from "../helpers/engines.ts";
import { seedCourse } from "../helpers/seed-course.ts";
import { slowWrites } from "../helpers/slow-writes.ts";

/** A stand-in for the job queue: the episodes queued, in order, each with a job id of its own. */
function jobQueue() {
  const queued: string[] = [];
  return {
    queued,
    enqueue: async (_tx: Sql, episodeId: string) => {
      queued.push(episodeId);
      return `job-${queued.length}`;
    },
  };
}

describe.each(ENGINES)("podcast episodes on %s", (_, open) => {
  let e: Engine;

  // initdb on a loaded machine takes longer than a hook's default 5 s.
  beforeAll(async () => {
    e = await open();
  }, 120_000);
  afterAll(() => e?.close());

  test("requests at once make one episode per chapter and queue each once", async () => {
    const c = await seedCourse(e.db, "crowd", 3);
    const jobs = jobQueue();
    const claims = await Promise.all(
      Array.from({ length: 4 }, () => claimEpisodes(e.db, c.courseId, c.chapters, "espeak", jobs.enqueue)),
    );
    expect(claims.reduce((n, x) => n + x.queued, 0)).toBe(3);
    const episodes = await courseEpisodes(e.db, c.courseId);
    expect(episodes.map((ep) => [ep.chapter_order, ep.status, ep.tts_provider])).toEqual([
      [0, "generating", "espeak"],
      [1, "generating", "espeak"],
      [2, "generating", "espeak"],
    ]);
    expect([...jobs.queued].sort()).toEqual(episodes.map((ep) => ep.id).sort());
    expect(new Set(episodes.map((ep) => ep.job_id)).size).toBe(3);
  });

  test("a ready episode is left alone; a failed one is queued again with the engine asked for", async () => {
    const c = await seedCourse(e.db, "retry", 2);
    const first = jobQueue();
    await claimEpisodes(e.db, c.courseId, c.chapters, "espeak", first.enqueue);
    const [done, failed] = await courseEpisodes(e.db, c.courseId);
    await e.db.run(sql`UPDATE podcast_episodes SET status = 'ready', blob_key = 'a.mp3' WHERE id = ${done!.id}`);
    await e.db.run(sql`UPDATE podcast_episodes SET status = 'error', error = '{"code":"X"}' WHERE id = ${failed!.id}`);

    const again = jobQueue();
    expect(await claimEpisodes(e.db, c.courseId, c.chapters, "piper", again.enqueue)).toEqual({
      ready: 1,
      failed: 1,
      queued: 1,
    });
    expect(again.queued).toEqual([failed!.id]);
    expect(await getEpisode(e.db, failed!.id)).toMatchObject({
      status: "generating",
      error: null,
      tts_provider: "piper",
      job_id: "job-1",
    });
    expect(await getEpisode(e.db, done!.id)).toMatchObject({ status: "ready", tts_provider: "espeak" });
    expect(await getEpisode(e.db, "no-such-episode")).toBeNull();
  });

  test("a claim beside the course's delete finds the course gone (404), never a foreign-key error", async () => {
    const c = await seedCourse(e.db, "deleted", 2);
    let deleted!: () => void;
    let release!: () => void;
    const rowDeleted = new Promise<void>((r) => (deleted = r));
    const committing = new Promise<void>((r) => (release = r));
    // The delete holds its transaction open after removing the row, as a delete of many chunks does.
    const deleting = e.db.transaction(async (tx) => {
      await lockCourse(tx, c.courseId);
      await tx.run(sql`DELETE FROM courses WHERE id = ${c.courseId}`);
      deleted();
      await committing;
    });
    await rowDeleted;
    const claiming = claimEpisodes(e.db, c.courseId, c.chapters, "espeak", jobQueue().enqueue).catch((err) => err);
    await Bun.sleep(50);
    release();
    await deleting;
    expect(await claiming).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(await courseEpisodes(e.db, c.courseId)).toEqual([]);
  });
});

describe("one failed episode asked for again on two PostgreSQL connections at once", () => {
  let e: Engine;

  beforeAll(async () => {
    e = await postgresEngine();
    // Each write of an episode holds its transaction open a while, so the second request reads
    // the episodes while the first has not committed: only the lock keeps it from seeing `error` too.
    await slowWrites(e.db, { table: "podcast_episodes", on: "UPDATE", seconds: 0.3 });
  }, 120_000);
  afterAll(() => e?.close());

  test("it is queued once: the second request finds it generating", async () => {
    const c = await seedCourse(e.db, "single-flight", 1);
    await claimEpisodes(e.db, c.courseId, c.chapters, "espeak", jobQueue().enqueue);
    await e.db.run(sql`UPDATE podcast_episodes SET status = 'error' WHERE course_id = ${c.courseId}`);

    const jobs = jobQueue();
    const claims = await Promise.all([
      claimEpisodes(e.db, c.courseId, c.chapters, "espeak", jobs.enqueue),
      claimEpisodes(e.db, c.courseId, c.chapters, "espeak", jobs.enqueue),
    ]);
    expect(jobs.queued).toHaveLength(1);
    expect(claims.map((x) => x.queued).sort()).toEqual([0, 1]);
    expect((await courseEpisodes(e.db, c.courseId)).map((ep) => [ep.status, ep.job_id])).toEqual([
      ["generating", "job-1"],
    ]);
  }, 30_000);
});
