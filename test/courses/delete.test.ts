/**
 * DELETE /v2/courses/{id} through real servers (built-in engine; fake Ollama to hold a generation
 * running): the course goes with its
 * chapters, its chapters' index entries and its podcast audio, while the documents it was built
 * from stay indexed; a course whose generation is running is refused with 409 and kept.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { openDb } from "../../src/db/index.ts";
import { blobPath, putBlob } from "../../src/media/blob-store.ts";
import { call, errorOf, type Target } from "../helpers/server.ts";
import { type CourseEnv, courseEnv, progressOf, settle, waitFor } from "./helpers.ts";

setDefaultTimeout(300_000);

let env: CourseEnv;
let modelEnv: CourseEnv;
let url: Target;
let key: string;

beforeAll(async () => {
  [env, modelEnv] = await Promise.all([
    courseEnv({ extractive: true }),
    courseEnv({ env: { LLM_TIMEOUT_MS: "3000" } }),
  ]);
  url = env.srv;
  key = env.key;
});
afterAll(() => Promise.all([env.stop(), modelEnv.stop()]));

async function rows(sql: string, ...args: string[]): Promise<number> {
  const { sqlite } = await openDb(env.srv.dataDir, { migrate: false });
  try {
    return sqlite.query<{ n: number }, string[]>(sql).get(...args)!.n;
  } finally {
    sqlite.close();
  }
}

describe("deleting a course", () => {
  test("removes its chapters, index entries and podcast audio; keeps its source documents", async () => {
    const form = new FormData();
    form.append(
      "files",
      new File(
        [
          "# Tides\n\nTides are the rise and fall of sea levels caused by the Moon's gravity.\n\nSpring tides happen at new and full moon.",
        ],
        "tides.md",
        { type: "text/markdown" },
      ),
    );
    form.append("num_chapters", "2");
    const made = await call(url, "/v2/courses/generate-from-files?mode=sync", { key, user: "pat", body: form });
    expect(made.status).toBe(200);
    const courseId: string = made.body.course.id;
    expect(await rows("SELECT count(*) AS n FROM retrieval_chunks WHERE course_id = ?", courseId)).toBeGreaterThan(0);

    // A ready episode's audio, as the podcast job leaves it.
    const audio = await putBlob({ blobDir: join(env.srv.dataDir, "blobs") }, new Uint8Array([0xff, 0xfb, 0x90, 0x00]), {
      ext: "mp3",
    });
    const { sqlite } = await openDb(env.srv.dataDir, { migrate: false });
    const now = new Date().toISOString();
    sqlite.run(
      `INSERT INTO podcast_episodes (id, course_id, chapter_id, chapter_order, title, status, tts_provider, blob_key, created_at, updated_at)
       SELECT ?, course_id, id, order_index, title, 'ready', 'espeak', ?, ?, ? FROM chapters WHERE course_id = ? AND order_index = 0`,
      [crypto.randomUUID(), audio.key, now, now, courseId],
    );
    const sources = sqlite
      .query<{ document_id: string }, [string]>("SELECT document_id FROM course_documents WHERE course_id = ?")
      .all(courseId);
    sqlite.close();
    expect(existsSync(blobPath(join(env.srv.dataDir, "blobs"), audio.key))).toBe(true);

    const r = await call(url, `/v2/courses/${courseId}`, { method: "DELETE", key, user: "pat" });
    expect(r.status).toBe(204);

    expect((await call(url, `/v2/courses/${courseId}`, { key, user: "pat" })).status).toBe(404);
    expect(
      (await call(url, `/v2/courses/${courseId}/ask`, { key, user: "pat", json: { question: "What causes tides?" } }))
        .status,
    ).toBe(404);
    expect(await rows("SELECT count(*) AS n FROM chapters WHERE course_id = ?", courseId)).toBe(0);
    expect(await rows("SELECT count(*) AS n FROM retrieval_chunks WHERE course_id = ?", courseId)).toBe(0);
    expect(await rows("SELECT count(*) AS n FROM podcast_episodes WHERE course_id = ?", courseId)).toBe(0);
    expect(existsSync(blobPath(join(env.srv.dataDir, "blobs"), audio.key))).toBe(false);
    // The source document is still the learner's, and still answers document queries.
    const list = await call(url, "/v2/documents", { key, user: "pat" });
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual(
      expect.arrayContaining(sources.map((s) => s.document_id)),
    );
    const q = await call(url, "/v2/documents/query", {
      key,
      user: "pat",
      json: { question: "What causes tides?", document_ids: sources.map((s) => s.document_id) },
    });
    expect(q.status).toBe(200);
    expect(q.body.answer).toContain("Moon's gravity");
  });

  test("a course whose generation is running is refused with 409 COURSE_BUSY and kept", async () => {
    const { srv, fake, key: modelKey } = modelEnv;
    fake!.behave("hang");
    let courseId = "";
    try {
      const started = await call(srv, "/v2/courses/generate", {
        key: modelKey,
        user: "pat",
        json: { topic: "Busy course", num_chapters: 2 },
      });
      expect(started.status).toBe(202);
      courseId = started.body.course_id;
      await waitFor(
        "job running",
        () => progressOf(srv, modelKey, "pat", courseId),
        (p) => p.body.job_status === "running",
        120_000,
      );
      const r = await call(srv, `/v2/courses/${courseId}`, { method: "DELETE", key: modelKey, user: "pat" });
      expect(r.status).toBe(409);
      expect(errorOf(r).code).toBe("COURSE_BUSY");
      expect((await call(srv, `/v2/courses/${courseId}`, { key: modelKey, user: "pat" })).status).toBe(200);
    } finally {
      fake!.behave("ok");
    }
    await settle(srv, modelKey, "pat", courseId);
    expect((await call(srv, `/v2/courses/${courseId}`, { method: "DELETE", key: modelKey, user: "pat" })).status).toBe(
      204,
    );
  });
});
