/**
 * Kill -9 at random points during course generation, document ingestion and podcast work, 20
 * times, restarting on the same data directory each time. The test keeps a ledger of everything
 * the API acknowledged; after the last restart every job must have ended (completed, or failed with
 * a structured reason), nothing may be duplicated, and everything acknowledged must still be there.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type FakeModel, startFakeModel } from "../helpers/fake-model.ts";
import { call, cleanup, startServer, type TestServer, tempDir } from "../helpers/server.ts";
import { writeStandInVoices } from "../podcasts/fixtures/fake-piper-voice.ts";
import { headersFor, sampleDocuments, type UploadDoc, uploadForm, waitUntil, withDb } from "./harness.ts";

const KILLS = 20;
const USER = "crash-learner";

interface AckedCourse {
  jobId: string;
  chapters: number;
}

interface Ledger {
  courses: Map<string, AckedCourse>;
  /** Document id → chunk count the process response reported. */
  documents: Map<string, number>;
  /** Courses whose podcast generation was accepted. */
  podcasts: Set<string>;
  /** Chapter contents of courses read back as completed: committed data that must never change. */
  snapshots: Map<string, string[]>;
}

const ledger: Ledger = { courses: new Map(), documents: new Map(), podcasts: new Set(), snapshots: new Map() };
const dataDir = tempDir("cf-crash-");
/**
 * Stand-in Piper voices speak the podcasts: what is proved here is that every acknowledged request
 * ends with its episodes, once each; eSpeak's real speech (which has its own tests) made the drain
 * after the last kill last minutes.
 */
const modelsDir = tempDir("cf-crash-voices-");
let model: FakeModel;
let key: string;
let srv: TestServer | null = null;
const kills: { round: number; focus: string; afterMs: number }[] = [];

const start = () => startServer({ dataDir, env: model.env });
const randomMs = (min: number, max: number) => Math.round(min + Math.random() * (max - min));

/** Fire-and-record: a request whose answer, if one comes before the kill, goes into the ledger. */
function generate(url: string, chapters: number): Promise<void> {
  return call(url, "/v2/courses/generate?mode=async", {
    key,
    user: USER,
    json: { topic: "Tides and the Moon", num_chapters: chapters },
  })
    .then((r) => {
      if (r.status === 202) ledger.courses.set(r.body.course_id, { jobId: r.body.id, chapters });
    })
    .catch(() => undefined);
}

function ingest(url: string, docs: UploadDoc[]): Promise<void> {
  return fetch(`${url}/v2/documents/process`, {
    method: "POST",
    headers: headersFor(key, USER),
    body: uploadForm(docs),
  })
    .then(async (res) => {
      if (res.status !== 200) return;
      const body = (await res.json()) as { documents: { id: string; status: string; chunk_count?: number }[] };
      for (const d of body.documents) if (d.status === "ready") ledger.documents.set(d.id, d.chunk_count ?? 0);
    })
    .catch(() => undefined);
}

function podcasts(url: string, courseId: string): Promise<void> {
  return call(url, `/v2/courses/${courseId}/podcasts/generate?tts_provider=provider_a`, { key, user: USER, json: {} })
    .then((r) => {
      if (r.status === 200) ledger.podcasts.add(courseId);
    })
    .catch(() => undefined);
}

/** Completed courses the API reports, with their chapters' content recorded as committed. */
async function snapshotCompleted(url: string): Promise<string[]> {
  const done: string[] = [];
  for (const id of ledger.courses.keys()) {
    const r = await call(url, `/v2/courses/${id}`, { key, user: USER }).catch(() => null);
    if (r?.status !== 200 || r.body.status !== "completed") continue;
    ledger.snapshots.set(
      id,
      r.body.chapters.map((c: { content: string }) => c.content),
    );
    done.push(id);
  }
  return done;
}

function note(i: number): UploadDoc {
  const text = `# Field note ${i}\n\nNote ${i} ${crypto.randomUUID()}: the tide tables for harbour ${i} were checked against the Moon's phase.\n`;
  return { name: `note-${i}.md`, type: "text/markdown", bytes: new TextEncoder().encode(text) };
}

beforeAll(async () => {
  const startedAt = Date.now();
  await writeStandInVoices(modelsDir);
  model = startFakeModel({
    latencyMs: 80,
    // A job may be running at any number of the kills: none may fail for it here (the stall
    // limit has its own test, test/jobs/crash-loop.test.ts).
    env: {
      MODELS_DIR: modelsDir,
      PIPER_HOST_VOICE: "host",
      PIPER_GUEST_VOICE: "guest",
      PODCAST_CONCURRENCY: "1",
      JOB_CONCURRENCY: "2",
      JOB_MAX_STALLS: String(KILLS),
    },
  });
  srv = await start();
  key = await srv.createKey("crash", "production");
  const docs = await sampleDocuments();
  // A first course to completion, so that podcast work has something to start from.
  await generate(srv.url, 2);
  await waitUntil(
    "a first completed course",
    () => snapshotCompleted(srv!.url),
    (done) => done.length > 0,
    30_000,
  );

  for (let round = 0; round < KILLS; round++) {
    const focus = ["generation", "ingestion", "podcasts"][round % 3]!;
    const work: Promise<void>[] = [];
    let afterMs: number;
    if (focus === "generation") {
      work.push(generate(srv.url, 3), generate(srv.url, 2));
      afterMs = randomMs(0, 1500);
    } else if (focus === "ingestion") {
      // The small note is answered first; the kill then falls in the larger upload's processing.
      work.push(ingest(srv.url, [note(100 + round)]), ingest(srv.url, [docs[0]!, docs[1]!, note(round)]));
      afterMs = randomMs(0, 600);
    } else {
      const completed = await snapshotCompleted(srv.url);
      // One course per round: a fresh one, else one already asked for (repeated requests must be safe).
      const fresh = completed.filter((id) => !ledger.podcasts.has(id) && ledger.courses.get(id)!.chapters === 2);
      work.push(podcasts(srv.url, fresh[0] ?? [...ledger.podcasts][0] ?? completed[0]!));
      work.push(generate(srv.url, 2));
      afterMs = randomMs(0, 2000);
    }
    // The kill waits for the state it is meant to cut, however slow the machine: the round's first
    // answer (an acknowledged course, upload or podcast request) and, for generation, a running job;
    // then a random moment of the work that follows.
    await Promise.race(work);
    if (focus === "generation") {
      await waitUntil(
        "a running job (or none left to run)",
        () =>
          withDb(dataDir, (db) =>
            db
              .query<{ running: number; queued: number }, []>(
                "SELECT count(*) FILTER (WHERE status = 'running') AS running, count(*) FILTER (WHERE status = 'queued') AS queued FROM jobs",
              )
              .get(),
          )!,
        (n) => n.running > 0 || n.queued === 0,
        60_000,
        25,
      );
    }
    await Bun.sleep(afterMs);
    await srv.kill();
    kills.push({ round, focus, afterMs });
    await Promise.allSettled(work);
    srv = await start();
  }
  // The last restart: let every job run to its end.
  const drainStarted = Date.now();
  await waitUntil(
    "every job to end",
    () =>
      withDb(
        dataDir,
        (db) =>
          db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')").get()!.n,
      ),
    (n) => n === 0,
    480_000,
    250,
  );
  console.log(
    `${KILLS} kills in ${Math.round((drainStarted - startedAt) / 1000)} s; jobs drained in ${Math.round((Date.now() - drainStarted) / 1000)} s`,
  );
  // Twenty process starts: minutes on a loaded machine.
}, 900_000);

afterAll(async () => {
  await srv?.stop({ keepData: true });
  await model?.stop();
  cleanup(dataDir);
  cleanup(modelsDir);
});

test("the server was killed 20 times during generation, ingestion and podcast work", () => {
  expect(kills.length).toBe(KILLS);
  expect(new Set(kills.map((k) => k.focus))).toEqual(new Set(["generation", "ingestion", "podcasts"]));
  expect(ledger.courses.size).toBeGreaterThan(KILLS / 2);
  expect(ledger.podcasts.size).toBeGreaterThan(0);
  expect(ledger.documents.size).toBeGreaterThan(0);
});

test("the database is intact", () => {
  expect(withDb(dataDir, (db) => db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get())).toEqual({
    integrity_check: "ok",
  });
});

test("every job ended: completed, or failed with a structured reason", () => {
  const jobs = withDb(dataDir, (db) =>
    db
      .query<{ id: string; type: string; status: string; error: string | null }, []>(
        "SELECT id, type, status, error FROM jobs",
      )
      .all(),
  );
  for (const j of jobs) {
    expect(["completed", "failed"]).toContain(j.status);
    if (j.status === "failed")
      expect(JSON.parse(j.error!)).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  }
});

test("every acknowledged course exists and was generated to its end, each chapter exactly once", async () => {
  for (const [id, acked] of ledger.courses) {
    const r = await call(srv!.url, `/v2/courses/${id}/progress`, { key, user: USER });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      course_id: id,
      course_status: "completed",
      progress_pct: 100,
      expected_chapters: acked.chapters,
    });
    const job = await call(srv!.url, `/v2/jobs/${acked.jobId}`, { key, user: USER });
    expect(job.body).toMatchObject({ id: acked.jobId, status: "completed" });
    const course = await call(srv!.url, `/v2/courses/${id}`, { key, user: USER });
    expect(course.body.chapters.map((c: { order_index: number }) => c.order_index)).toEqual([
      ...Array(acked.chapters).keys(),
    ]);
  }
  const duplicates = withDb(dataDir, (db) =>
    db
      .query("SELECT course_id, order_index, count(*) AS n FROM chapters GROUP BY course_id, order_index HAVING n > 1")
      .all(),
  );
  expect(duplicates).toEqual([]);
  const orphanCourses = withDb(dataDir, (db) =>
    db.query("SELECT id, status FROM courses WHERE status = 'generating'").all(),
  );
  expect(orphanCourses).toEqual([]);
});

test("chapters read back as committed before a kill are unchanged after it", async () => {
  expect(ledger.snapshots.size).toBeGreaterThan(0);
  for (const [id, contents] of ledger.snapshots) {
    const r = await call(srv!.url, `/v2/courses/${id}`, { key, user: USER });
    expect(r.body.chapters.map((c: { content: string }) => c.content)).toEqual(contents);
  }
});

test("every acknowledged podcast request ends with one episode per chapter, none duplicated", async () => {
  for (const id of ledger.podcasts) {
    const r = await call(srv!.url, `/v2/courses/${id}/podcasts`, { key, user: USER });
    expect(r.status).toBe(200);
    const chapters = ledger.courses.get(id)!.chapters;
    expect(r.body.episodes.map((e: { chapter_order: number }) => e.chapter_order)).toEqual([...Array(chapters).keys()]);
    for (const e of r.body.episodes) {
      expect(e.status).toBe("ready");
      expect(e.audio_url).toContain("/media/");
    }
    const audio = await fetch(r.body.episodes[0].audio_url);
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  }
  const duplicates = withDb(dataDir, (db) =>
    db
      .query(
        "SELECT course_id, chapter_order, count(*) AS n FROM podcast_episodes GROUP BY course_id, chapter_order HAVING n > 1",
      )
      .all(),
  );
  expect(duplicates).toEqual([]);
});

test("every acknowledged document is still ready with its chunks, indexed once, and answers queries", async () => {
  const ids = [...ledger.documents.keys()];
  const rows = withDb(dataDir, (db) =>
    db
      .query<{ id: string; status: string; chunk_count: number; chunks: number; positions: number }, []>(
        `SELECT d.id, d.status, d.chunk_count,
                (SELECT count(*) FROM retrieval_chunks c WHERE c.document_id = d.id) AS chunks,
                (SELECT count(DISTINCT position) FROM retrieval_chunks c WHERE c.document_id = d.id) AS positions
           FROM documents d WHERE d.id IN (SELECT value FROM json_each('${JSON.stringify(ids)}'))`,
      )
      .all(),
  );
  expect(rows.length).toBe(ids.length);
  for (const row of rows) {
    expect(row).toMatchObject({
      status: "ready",
      chunk_count: ledger.documents.get(row.id)!,
      chunks: ledger.documents.get(row.id)!,
    });
    expect(row.positions).toBe(row.chunks);
  }
  for (let i = 0; i < ids.length; i += 20) {
    const q = await call(srv!.url, "/v2/documents/query", {
      key,
      user: USER,
      json: { question: "What was checked against the Moon's phase?", document_ids: ids.slice(i, i + 20) },
    });
    expect(q.status).toBe(200);
    expect(q.body.sources.length).toBeGreaterThan(0);
  }
});

test("no document is left 'processing' after a kill during ingestion", () => {
  // A process request cut off by a kill was never acknowledged; its rows must end as errors (retry
  // the upload) rather than stay 'processing' for ever in GET /v2/documents.
  const stuck = withDb(dataDir, (db) =>
    db.query("SELECT id, filename FROM documents WHERE status = 'processing'").all(),
  );
  expect(stuck).toEqual([]);
});
