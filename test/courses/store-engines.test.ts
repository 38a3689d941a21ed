/**
 * The courses owner's storage (courses, chapters, quiz_questions, chapter_sources) on both
 * engines: SQLite (the server's) and PostgreSQL (a throwaway cluster). A planned course gets its
 * chapters in order, a written chapter its quiz and sources, the course completes with its event,
 * a delete takes everything made from it, and a tenant never reads another's course. The retrieval
 * index a delete consults is still bun:sqlite's: on PostgreSQL an empty SQLite data directory
 * stands in for it.
 */
import type { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { chapterOutline, chapterQuiz, writtenChapters } from "../../src/courses/chapters.ts";
import { deleteCourse } from "../../src/courses/delete.ts";
import { chapterCounts, courseProgress } from "../../src/courses/progress.ts";
import { listCourses, loadCourseOf, readCourse } from "../../src/courses/read.ts";
import {
  type ChapterSourceRecord,
  type CoursePlan,
  commitChapter,
  commitOutline,
  completeCourse,
  loadCourse,
} from "../../src/courses/store.ts";
import { openDb } from "../../src/db/index.ts";
import { inJsonArray, raw, type Sql, SqliteSql, sql } from "../../src/db/sql.ts";
import type { ChapterDraft } from "../../src/llm/artefacts.ts";
import { blobPath, putBlob } from "../../src/media/blob-store.ts";
import { episodeBlobKeys } from "../../src/podcasts/episodes.ts";
import { ENGINES, type Engine } from "../helpers/engines.ts";
import { seedCourse } from "../helpers/seed-course.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const clock = { now: () => new Date() };

const plan = (titles: string[]): CoursePlan => ({
  title: "Graph theory",
  slug: "graph-theory",
  description: "Nodes, edges and walks.",
  topic: "graphs",
  organization: null,
  chapters: titles.map((title) => ({ title, objectives: [`Know ${title}`], source_document_ids: null })),
});

const draft = (topic: string): ChapterDraft => ({
  content: `All about ${topic}.`,
  key_concepts: [topic],
  quiz: {
    questions: [1, 2, 3].map((n) => ({
      type: "mcq",
      prompt: `${topic} question ${n}?`,
      choices: ["a", "b", "c", "d"],
      answer: n % 4,
      explanation: `Because of ${topic}.`,
    })),
  },
  citations: [],
});

const source = (excerpt: string): ChapterSourceRecord => ({
  document_id: null,
  chunk_id: null,
  filename: null,
  page: null,
  timestamp_seconds: null,
  url: "https://example.org/graphs",
  title: "Graphs",
  excerpt,
  score: 0.5,
  paragraphs: [0],
});

/** A course seeded with no chapters, then planned: the state a course job reaches after its outline. */
async function plannedCourse(db: Sql, tenant: string, titles: string[]) {
  const seeded = await seedCourse(db, tenant, 0);
  await db.run(sql`UPDATE courses SET status = 'generating', completed_at = NULL WHERE id = ${seeded.courseId}`);
  const course = (await loadCourse(db, seeded.courseId))!;
  const chapters = await commitOutline(db, course, plan(titles));
  return { ...seeded, course, chapters };
}

describe.each(ENGINES)("courses on %s", (_, open) => {
  let e: Engine;
  let side: { sqlite: Database; dir: string } | null = null;
  /** The bun:sqlite connection of the retrieval index, not behind the seam yet. */
  let sqliteOf: () => Database;

  // initdb on a loaded machine takes longer than a hook's default 5 s.
  beforeAll(async () => {
    e = await open();
    if (e.db instanceof SqliteSql) {
      const own = e.db.db;
      sqliteOf = () => own;
    } else {
      const dir = tempDir("cf-courses-side-");
      side = { sqlite: (await openDb(dir)).sqlite, dir };
      sqliteOf = () => side!.sqlite;
    }
  }, 120_000);
  afterAll(async () => {
    side?.sqlite.close();
    if (side) cleanup(side.dir);
    await e?.close();
  });

  test("a planned course has its chapters pending, in order; written ones come back with quiz and sources", async () => {
    const c = await plannedCourse(e.db, "planner", ["Nodes", "Edges", "Walks"]);
    expect(c.chapters.map((ch) => [ch.order_index, ch.title, ch.status])).toEqual([
      [0, "Nodes", "pending"],
      [1, "Edges", "pending"],
      [2, "Walks", "pending"],
    ]);
    const stored = (await loadCourse(e.db, c.courseId))!;
    expect(stored).toMatchObject({ title: "Graph theory", slug: "graph-theory", num_chapters: 3 });
    expect(JSON.parse(stored.outline!).chapters.map((ch: { title: string }) => ch.title)).toEqual([
      "Nodes",
      "Edges",
      "Walks",
    ]);

    // Written out of order, as parallel chapters are; read back in the outline's order.
    const maker = { engine: "ollama", model: "m1" };
    await commitChapter(e.db, c.chapters[2]!.id, draft("walks"), [source("A walk visits nodes.")], maker);
    await commitChapter(e.db, c.chapters[0]!.id, draft("nodes"), [], maker);
    expect((await writtenChapters(e.db, c.courseId)).map((ch) => ch.title)).toEqual(["Nodes", "Walks"]);
    expect((await chapterOutline(e.db, c.courseId)).map((ch) => [ch.title, ch.status, ch.questions])).toEqual([
      ["Nodes", "completed", 3],
      ["Edges", "pending", 0],
      ["Walks", "completed", 3],
    ]);
    expect((await chapterQuiz(e.db, c.chapters[2]!.id)).map((q) => q.prompt)).toEqual([
      "walks question 1?",
      "walks question 2?",
      "walks question 3?",
    ]);

    const full = await readCourse(e.db, c.owner, c.courseId);
    expect(full.chapters.map((ch) => ch.title)).toEqual(["Nodes", "Walks"]);
    expect(full.chapters[1]).toMatchObject({
      content: "All about walks.",
      key_concepts: ["walks"],
      sources: [{ url: "https://example.org/graphs", excerpt: "A walk visits nodes.", paragraphs: [0] }],
      engine: "ollama",
    });
    expect(full.chapters[1]!.quiz.questions[0]).toMatchObject({ choices: ["a", "b", "c", "d"], answer: 1 });

    // A chapter written again replaces its quiz and sources rather than adding to them.
    await commitChapter(e.db, c.chapters[2]!.id, draft("cycles"), [], maker);
    expect((await chapterQuiz(e.db, c.chapters[2]!.id)).map((q) => q.prompt)[0]).toBe("cycles question 1?");
    expect((await readCourse(e.db, c.owner, c.courseId)).chapters[1]!.sources).toEqual([]);
  });

  test("progress counts the written chapters of the outline; another tenant's course is 404", async () => {
    const c = await plannedCourse(e.db, "progress", ["One", "Two", "Three"]);
    await commitChapter(e.db, c.chapters[1]!.id, draft("two"), [], { engine: "ollama", model: "m1" });
    expect(await chapterCounts(e.db, c.courseId, 3)).toEqual({ expected: 3, completed: 1 });
    expect(await courseProgress(e.db, c.owner, c.courseId)).toMatchObject({
      course_status: "generating",
      progress_pct: 33,
      expected_chapters: 3,
      completed_chapters: 1,
      chapters: [
        { order: 0, status: "pending" },
        { order: 1, status: "completed" },
        { order: 2, status: "pending" },
      ],
    });
    const stranger = { tenantId: crypto.randomUUID(), userId: c.owner.userId };
    await expect(courseProgress(e.db, stranger, c.courseId)).rejects.toMatchObject({ status: 404 });
  });

  test("completing a course records its state and counts its chapters", async () => {
    const c = await plannedCourse(e.db, "finisher", ["One", "Two"]);
    const queued: string[] = [];
    const queue = async (_tx: Sql, job: { deliveryId: string }) => {
      queued.push(job.deliveryId);
      return "job";
    };
    expect(await completeCourse(e.db, { queue, clock }, c.course, "job-1")).toEqual({
      title: "Graph theory",
      chaptersCount: 2,
    });
    const done = (await loadCourse(e.db, c.courseId))!;
    expect(done.status).toBe("completed");
    expect(done.completed_at).not.toBeNull();
    // No webhook subscribes: no delivery is queued.
    expect(queued).toEqual([]);
  });

  test("a tenant never reads another's course; another learner of the tenant is refused", async () => {
    const mine = await plannedCourse(e.db, "tenant-a", ["Only"]);
    const theirs = await seedCourse(e.db, "tenant-b", 1);
    await expect(loadCourseOf(e.db, theirs.owner, mine.courseId)).rejects.toMatchObject({ status: 404 });
    await expect(readCourse(e.db, theirs.owner, mine.courseId)).rejects.toMatchObject({ status: 404 });
    const colleague = { tenantId: mine.owner.tenantId, userId: "someone-else" };
    await expect(readCourse(e.db, colleague, mine.courseId)).rejects.toMatchObject({ status: 403 });
    expect((await loadCourseOf(e.db, mine.owner, mine.courseId)).id).toBe(mine.courseId);

    const listed = await listCourses(e.db, theirs.owner, 10);
    expect(listed.data.map((x) => x.id)).toEqual([theirs.courseId]);
    expect(listed.data[0]!.chapters).toEqual([{ order_index: 0, title: "Chapter 0" }]);
    expect(listed.pagination).toMatchObject({ has_more: false, next_cursor: null });
  });

  test("a page of courses continues after its cursor", async () => {
    const first = await seedCourse(e.db, "pager", 0);
    const ids = [first.courseId];
    for (const at of ["2026-01-02T00:00:00.000Z", "2026-01-03T00:00:00.000Z"]) {
      const id = crypto.randomUUID();
      await e.db.run(
        sql`INSERT INTO courses (id, tenant_id, user_id, title, topic, slug, source_type, status, num_chapters, created_at, updated_at)
            VALUES (${id}, ${first.owner.tenantId}, ${first.owner.userId}, 'More', 'more', 'more', 'topic', 'completed', 0, ${at}, ${at})`,
      );
      ids.push(id);
    }
    const page1 = await listCourses(e.db, first.owner, 2);
    expect(page1.data.map((x) => x.id)).toEqual([ids[0]!, ids[2]!]);
    expect(page1.pagination.has_more).toBe(true);
    const page2 = await listCourses(e.db, first.owner, 2, page1.pagination.next_cursor);
    expect(page2.data.map((x) => x.id)).toEqual([ids[1]!]);
  });

  test("a delete takes the chapters, quizzes, sources, materials and episodes; another learner's delete is refused", async () => {
    const c = await plannedCourse(e.db, "deleter", ["Nodes", "Edges"]);
    const dataDir = tempDir("cf-courses-blobs-");
    const audio = await putBlob({ blobDir: dataDir }, new Uint8Array([1, 2, 3]), { ext: "mp3" });
    const maker = { engine: "ollama", model: "m1" };
    await commitChapter(e.db, c.chapters[0]!.id, draft("nodes"), [source("Nodes.")], maker);
    await e.db.run(
      sql`INSERT INTO podcast_episodes (id, course_id, chapter_id, chapter_order, title, status, tts_provider, blob_key, created_at, updated_at)
          VALUES (${crypto.randomUUID()}, ${c.courseId}, ${c.chapters[0]!.id}, 0, 'Nodes', 'ready', 'espeak', ${audio.key}, ${clock.now().toISOString()}, ${clock.now().toISOString()})`,
    );
    const svc = { db: e.db, sqlite: sqliteOf(), cfg: { blobDir: dataDir } };
    const colleague = { tenantId: c.owner.tenantId, userId: "someone-else" };
    await expect(deleteCourse(svc, colleague, c.courseId, episodeBlobKeys)).rejects.toMatchObject({ status: 403 });

    const removedKeys: string[] = [];
    await deleteCourse(svc, c.owner, c.courseId, async (db, courseId) => {
      const keys = await episodeBlobKeys(db, courseId);
      removedKeys.push(...keys);
      return keys;
    });
    expect(removedKeys).toEqual([audio.key]);
    expect(existsSync(blobPath(dataDir, audio.key))).toBe(false);
    cleanup(dataDir);
    expect(await loadCourse(e.db, c.courseId)).toBeNull();
    const left = async (table: string, column: string, ids: string[]) =>
      Number(
        (await e.db.get<{ n: number }>(
          sql`SELECT CAST(count(*) AS INTEGER) AS n FROM ${raw(table)} WHERE ${inJsonArray(column, ids)}`,
        ))!.n,
      );
    const chapterIds = c.chapters.map((ch) => ch.id);
    expect(await left("chapters", "course_id", [c.courseId])).toBe(0);
    expect(await left("quiz_questions", "chapter_id", chapterIds)).toBe(0);
    expect(await left("chapter_sources", "chapter_id", chapterIds)).toBe(0);
    expect(await left("flashcard_decks", "course_id", [c.courseId])).toBe(0);
    expect(await left("exams", "course_id", [c.courseId])).toBe(0);
    expect(await left("podcast_episodes", "course_id", [c.courseId])).toBe(0);
    await expect(deleteCourse(svc, c.owner, c.courseId, episodeBlobKeys)).rejects.toMatchObject({ status: 404 });
  });
});
