/**
 * The crash suite's key cases on PostgreSQL (#34): one node on a database of the run's throwaway
 * cluster, killed with kill -9 during generation, ingestion and podcast work (each kill waits for
 * the state it cuts: a running job, or an upload being ingested) and restarted on the same data
 * directory, so the same node identity. A ledger keeps what the API acknowledged; after the last
 * restart every job has ended completed, each acknowledged course has each chapter once, each
 * acknowledged document is ready with its chunks, each acknowledged podcast has one episode per
 * chapter, and nothing is left `processing` (the restarted node ends its own interrupted uploads).
 * test/reliability/crash.test.ts runs the full twenty kills on SQLite.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { postgresSql } from "../../src/db/sql.ts";
import { createKey } from "../../src/tenants/keys.ts";
import { type FakeModel, startFakeModel } from "../helpers/fake-model.ts";
import { startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { call, cleanup, startServer, type TestServer, tempDir } from "../helpers/server.ts";
import { writeStandInVoices } from "../podcasts/fixtures/fake-piper-voice.ts";
import { headersFor, sampleDocuments, type UploadDoc, uploadForm, waitUntil } from "./harness.ts";

const USER = "pg-crash-learner";
const FOCUS = ["generation", "ingestion", "podcasts", "generation", "ingestion", "podcasts"] as const;

const dataDir = tempDir("cf-pg-crash-");
const modelsDir = tempDir("cf-pg-crash-voices-");
let pg: TestPostgres;
let model: FakeModel;
let srv: TestServer | null = null;
let key: string;
const courses = new Map<string, number>();
const documents = new Map<string, number>();
const podcasts = new Set<string>();
const kills: string[] = [];

const start = () => startServer({ dataDir, env: model.env });

function generate(chapters: number): Promise<void> {
  return call(srv!.url, "/v2/courses/generate?mode=async", {
    key,
    user: USER,
    json: { topic: "Tides and the Moon", num_chapters: chapters },
  })
    .then((r) => {
      if (r.status === 202) courses.set(r.body.course_id, chapters);
    })
    .catch(() => undefined);
}

function ingest(docs: UploadDoc[]): Promise<void> {
  return fetch(`${srv!.url}/v2/documents/process`, {
    method: "POST",
    headers: headersFor(key, USER),
    body: uploadForm(docs),
  })
    .then(async (res) => {
      if (res.status !== 200) return;
      const body = (await res.json()) as { documents: { id: string; status: string; chunk_count: number }[] };
      for (const d of body.documents) if (d.status === "ready") documents.set(d.id, d.chunk_count);
    })
    .catch(() => undefined);
}

function podcast(courseId: string): Promise<void> {
  return call(srv!.url, `/v2/courses/${courseId}/podcasts/generate?tts_provider=provider_a`, {
    key,
    user: USER,
    json: {},
  })
    .then((r) => {
      if (r.status === 200) podcasts.add(courseId);
    })
    .catch(() => undefined);
}

function note(i: number): UploadDoc {
  const text = `# Field note ${i}\n\nNote ${i}: the tide tables for harbour ${i} were checked against the Moon's phase.\n`;
  return { name: `note-${i}.md`, type: "text/markdown", bytes: new TextEncoder().encode(text) };
}

const count = async (query: Promise<{ n: unknown }[]>) => Number((await query)[0]!.n);

beforeAll(async () => {
  await writeStandInVoices(modelsDir);
  pg = await startPostgres();
  model = startFakeModel({
    latencyMs: 80,
    env: {
      DATABASE_URL: pg.url,
      MODELS_DIR: modelsDir,
      PIPER_HOST_VOICE: "host",
      PIPER_GUEST_VOICE: "guest",
      PODCAST_CONCURRENCY: "1",
      JOB_CONCURRENCY: "2",
      JOB_MAX_STALLS: String(FOCUS.length),
    },
  });
  srv = await start();
  key = (await createKey(postgresSql(pg.client), { tenant: "crash", env: "production" })).key;
  const docs = await sampleDocuments();
  await generate(2);
  await waitUntil(
    "a first completed course",
    () => count(pg.client`SELECT count(*) AS n FROM courses WHERE status = 'completed'`),
    (n) => n > 0,
    60_000,
  );

  for (const focus of FOCUS) {
    const work: Promise<void>[] = [];
    if (focus === "ingestion") {
      // The small note is answered before the larger upload is sent: raced, the larger one could end
      // first on a loaded machine and leave no processing to cut. The kill waits for the larger
      // upload's documents being processed; one that ends before it is seen so is sent again.
      await ingest([note(kills.length)]);
      for (let tries = 1; ; tries++) {
        let ended = false;
        work.push(ingest([docs[0]!, docs[1]!, docs[2]!]).finally(() => (ended = true)));
        const seen = await waitUntil(
          "the larger upload being ingested",
          async () =>
            ended ? "ended" : count(pg.client`SELECT count(*) AS n FROM documents WHERE status = 'processing'`),
          (v) => v === "ended" || v > 0,
          60_000,
          25,
        );
        if (seen !== "ended") break;
        if (tries === 5) throw new Error("five uploads ended before any was seen being processed");
      }
    } else {
      if (focus === "generation") work.push(generate(3), generate(2));
      else {
        // A fresh course when there is one, else one already asked for (a repeated request must be safe).
        const done = await pg.client<{ id: string }[]>`
          SELECT id FROM courses WHERE status = 'completed' AND num_chapters = 2 ORDER BY created_at`;
        const fresh = done.find((c) => !podcasts.has(c.id)) ?? done[0]!;
        work.push(podcast(fresh.id), generate(2));
      }
      // The kill waits for the state it cuts, however slow the machine: the round's first answer (the
      // podcast request's, in its rounds), then a job running.
      await (focus === "podcasts" ? work[0] : Promise.race(work));
      await waitUntil(
        `the ${focus} round's work under way`,
        () => count(pg.client`SELECT count(*) AS n FROM jobs WHERE status = 'running'`),
        (n) => n > 0,
        60_000,
        25,
      );
    }
    await srv!.kill();
    kills.push(focus);
    await Promise.allSettled(work);
    srv = await start();
  }
  await waitUntil(
    "every job to end",
    () => count(pg.client`SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')`),
    (n) => n === 0,
    300_000,
    250,
  );
}, 600_000);

afterAll(async () => {
  await srv?.stop({ keepData: true });
  await model?.stop();
  await pg?.stop();
  cleanup(dataDir);
  cleanup(modelsDir);
});

test("the node was killed during generation, ingestion and podcast work", () => {
  expect(kills).toEqual([...FOCUS]);
  expect(courses.size).toBeGreaterThan(3);
});

test("every job completed; every acknowledged course was generated to its end, each chapter once", async () => {
  const notCompleted = await pg.client`SELECT id, type, status, error FROM jobs WHERE status <> 'completed'`;
  expect(notCompleted).toEqual([]);
  for (const [id, chapters] of courses) {
    const r = await call(srv!.url, `/v2/courses/${id}`, { key, user: USER });
    expect(r.body.status).toBe("completed");
    expect(r.body.chapters.map((c: { order_index: number }) => c.order_index)).toEqual([...Array(chapters).keys()]);
  }
  const duplicates = await pg.client`
    SELECT course_id, order_index FROM chapters GROUP BY course_id, order_index HAVING count(*) > 1`;
  expect(duplicates).toEqual([]);
});

test("acknowledged documents are ready with their chunks, indexed once; none is left processing", async () => {
  for (const [id, chunks] of documents) {
    const [row] = await pg.client`
      SELECT d.status, d.chunk_count, (SELECT count(*) FROM retrieval_chunks c WHERE c.document_id = d.id) AS chunks
        FROM documents d WHERE d.id = ${id}`;
    expect({ ...row, chunks: Number(row.chunks) }).toEqual({ status: "ready", chunk_count: chunks, chunks });
  }
  expect(await pg.client`SELECT id FROM documents WHERE status = 'processing'`).toEqual([]);
});

test("every acknowledged podcast ends with one episode per chapter, none duplicated", async () => {
  expect(podcasts.size).toBeGreaterThan(0);
  for (const id of podcasts) {
    const r = await call(srv!.url, `/v2/courses/${id}/podcasts`, { key, user: USER });
    expect(r.body.episodes.map((e: { chapter_order: number; status: string }) => [e.chapter_order, e.status])).toEqual([
      [0, "ready"],
      [1, "ready"],
    ]);
  }
});
