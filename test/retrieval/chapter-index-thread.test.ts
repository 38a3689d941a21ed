/**
 * A written chapter is indexed in the extractive engine's thread (#32): cutting a long chapter into
 * chunks, embedding them and writing them took the server's thread for the whole write and a batch
 * of embedding at a time (stalls of 100-300 ms per chapter while a book became a 20-chapter course).
 * The test's own thread stands for the server's: its timers keep firing while a 1.5 MB chapter is
 * indexed, late by a small part of the indexing's time at most (a bound relative to the work, so a
 * loaded machine slows both alike), and the chapter is then found by search.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type OpenedDb, openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { builtinEmbedder } from "../../src/retrieval/embedders/builtin.ts";
import { chapterIndexJob, search } from "../../src/retrieval/index.ts";
import { ensureTenant } from "../../src/tenants/keys.ts";
import { newId, nowIso } from "../../src/util.ts";
import { engineThread } from "../helpers/engine-thread.ts";
import { cleanup, tempDir } from "../helpers/server.ts";
import { bigText } from "../reliability/hostile-files.ts";

let dir: string;
let opened: OpenedDb;

beforeAll(async () => {
  dir = tempDir("cf-chapter-index-");
  opened = await openDb(dir);
});
afterAll(() => {
  opened.sqlite.close();
  cleanup(dir);
});

/** A long chapter: prose under a subheading every 40 paragraphs, and one paragraph to find it by. */
function longChapter(mb: number): string {
  const paragraphs = new TextDecoder().decode(bigText(mb)).split("\n\n").filter(Boolean);
  const out = ["# Harbour pilots"];
  paragraphs.forEach((p, i) => {
    if (i % 40 === 0) out.push(`## Stretch ${i / 40 + 1}`);
    out.push(p);
  });
  out.push("Soundings of the estuary channel are taken at every spring tide by the harbour pilots.");
  return out.join("\n\n");
}

test("a long chapter is indexed off the calling thread, which keeps running, and is found by search", async () => {
  const { id: tenantId } = await ensureTenant(sqliteSql(opened.sqlite), "acme");
  const userId = newId();
  const courseId = newId();
  const chapterId = newId();
  const now = nowIso();
  opened.sqlite.run("INSERT INTO users (id, tenant_id, external_id, created_at) VALUES (?, ?, ?, ?)", [
    userId,
    tenantId,
    "reader",
    now,
  ]);
  opened.sqlite.run(
    `INSERT INTO courses (id, tenant_id, user_id, title, topic, slug, source_type, status, num_chapters, created_at, updated_at)
     VALUES (?, ?, ?, 'Pilots', 'Pilots', 'pilots', 'files', 'generating', 1, ?, ?)`,
    [courseId, tenantId, userId, now, now],
  );
  opened.sqlite.run(
    "INSERT INTO chapters (id, course_id, order_index, title, status, created_at) VALUES (?, ?, 0, 'Harbour pilots', 'running', ?)",
    [chapterId, courseId, now],
  );
  const cfg = {
    dataDir: dir,
    databaseUrl: null,
    embedder: "builtin" as const,
    embeddingModel: null,
    modelsDir: dir,
    ollamaHost: ["http://127.0.0.1:9"],
    llmTimeoutMs: 1_000,
    llmKeepAlive: "5m",
  };
  const markdown = longChapter(1.5);

  let last = performance.now();
  let latest = 0;
  const ticker = setInterval(() => {
    const at = performance.now();
    latest = Math.max(latest, at - last);
    last = at;
  }, 5);
  const started = performance.now();
  await engineThread.indexChapter(
    chapterIndexJob({ cfg }, { tenantId, userId, courseId, chapterId, title: "Harbour pilots", markdown }),
  );
  const took = performance.now() - started;
  clearInterval(ticker);

  const chunks = opened.sqlite
    .query<{ n: number }, [string]>("SELECT count(*) AS n FROM retrieval_chunks WHERE chapter_id = ?")
    .get(chapterId)!.n;
  expect(chunks).toBeGreaterThan(500);
  expect(took).toBeGreaterThan(200);
  expect(latest).toBeLessThan(took * 0.1);
  const hits = await search(
    { sql: sqliteSql(opened.sqlite), embedder: builtinEmbedder() },
    { tenantId, userId, scope: { courseId }, query: "soundings of the estuary channel", topK: 3 },
  );
  expect(hits[0]?.text).toContain("Soundings of the estuary channel");
}, 300_000);
