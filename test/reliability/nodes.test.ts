/**
 * Three nodes on one PostgreSQL, one killed (#34). Three server processes share a database of the
 * run's throwaway cluster, one blob directory and the signing secrets; a client generates courses
 * (async, and streams that follow their job whichever node runs it), uploads and processes
 * documents, asks for podcasts and receives webhooks through all three. Node B is killed with
 * kill -9 once it holds a course job and is ingesting an upload (the test waits for that state);
 * it never comes back. Then every acknowledged course is generated exactly once, every job ends
 * completed, every course.completed event arrives, B's job is finished by another node after its
 * lease and B's upload is ended by another node after its ingestion lease. Podcast feeds and signed
 * media URLs made by one node are served by another.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { postgresSql } from "../../src/db/sql.ts";
import { ABANDONED_UPLOAD } from "../../src/documents/ingest-leases.ts";
import { createKey } from "../../src/tenants/keys.ts";
import { readSse, type SseEvent } from "../courses/helpers.ts";
import { type FakeModel, startFakeModel } from "../helpers/fake-model.ts";
import { startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { call, cleanup, startServer, type TestServer, tempDir } from "../helpers/server.ts";
import { writeStandInVoices } from "../podcasts/fixtures/fake-piper-voice.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { CORPUS, headersFor, type UploadDoc, uploadForm, waitUntil } from "./harness.ts";

const USER = "node-learner";
const CHAPTERS = 3;
const VICTIM_UPLOAD = "victim-upload.pdf";

const shared = tempDir("cf-nodes-");
const blobDir = join(shared, "blobs");
const modelsDir = join(shared, "models");
let pg: TestPostgres;
let model: FakeModel;
let rx: Receiver;
let nodes: TestServer[] = [];
let key: string;
/** Acknowledged courses (202, or a stream's accepted event) and the node the client asked. */
const courses = new Map<string, { node: number; jobId: string }>();
/** Stream requests: the node asked, and the events it sent. */
const streams: { node: number; events: SseEvent[] }[] = [];
/** Documents the process route answered ready, with their chunk count. */
const documents = new Map<string, number>();
/** Every job seen running, with the process ids of the nodes seen holding its lease. */
const holders = new Map<string, Set<number>>();
let victimJob = "";
let victimUpload = "";

const pidOf = (owner: string) => Number(owner.split(":")[1]);
const [A, B, C] = [0, 1, 2];

function note(i: number): UploadDoc {
  const text = `# Harbour note ${i}\n\nThe tide at harbour ${i} turned at ${i % 12} o'clock, a day after the full Moon.\n`;
  return { name: `note-${i}.md`, type: "text/markdown", bytes: new TextEncoder().encode(text) };
}

function generate(node: number, topic: string): Promise<void> {
  return call(nodes[node]!.url, "/v2/courses/generate?mode=async", {
    key,
    user: USER,
    json: { topic, num_chapters: CHAPTERS },
  }).then((r) => {
    expect(r.status).toBe(202);
    courses.set(r.body.course_id, { node, jobId: r.body.id });
  });
}

async function stream(node: number, topic: string): Promise<void> {
  const res = await fetch(`${nodes[node]!.url}/v2/courses/generate?mode=stream`, {
    method: "POST",
    headers: headersFor(key, USER, true),
    body: JSON.stringify({ topic, num_chapters: CHAPTERS }),
  });
  expect(res.status).toBe(200);
  const { events } = await readSse(res);
  streams.push({ node, events });
  const done = events.find((e) => e.event === "completed");
  if (done) courses.set(done.data.course_id, { node, jobId: done.data.job_id });
}

async function upload(node: number, docs: UploadDoc[]): Promise<void> {
  const res = await fetch(`${nodes[node]!.url}/v2/documents/process`, {
    method: "POST",
    headers: headersFor(key, USER),
    body: uploadForm(docs),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { documents: { id: string; status: string; chunk_count: number }[] };
  for (const d of body.documents) {
    expect(d.status).toBe("ready");
    documents.set(d.id, d.chunk_count);
  }
}

/** Records who holds each running job, until stopped: the lease owner is cleared when a job ends. */
function watchHolders(): () => Promise<void> {
  let on = true;
  const loop = (async () => {
    while (on) {
      const running = await pg.client<{ id: string; lease_owner: string }[]>`
        SELECT id, lease_owner FROM jobs WHERE status = 'running' AND lease_owner IS NOT NULL`;
      for (const j of running) {
        const set = holders.get(j.id) ?? new Set();
        set.add(pidOf(j.lease_owner));
        holders.set(j.id, set);
      }
      await Bun.sleep(25);
    }
  })();
  return async () => {
    on = false;
    await loop;
  };
}

const jobsLeft = async () =>
  Number((await pg.client`SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')`)[0].n);

beforeAll(async () => {
  await writeStandInVoices(modelsDir);
  pg = await startPostgres();
  rx = startReceiver(shared);
  model = startFakeModel({
    latencyMs: 150,
    env: {
      MODELS_DIR: modelsDir,
      PIPER_HOST_VOICE: "host",
      PIPER_GUEST_VOICE: "guest",
      PODCAST_CONCURRENCY: "1",
      JOB_CONCURRENCY: "2",
      DATABASE_URL: pg.url,
      BLOB_DIR: blobDir,
      MEDIA_SIGNING_SECRET: "media-secret-every-node-shares-0123456789",
      PODCAST_FEED_SECRET: "feed-secret-every-node-shares-0123456789",
      NODE_EXTRA_CA_CERTS: rx.certFile,
      OUTBOUND_ALLOW: "127.0.0.1",
    },
  });
  // Started together: the migrations run once, under their advisory lock.
  nodes = await Promise.all([A, B, C].map(() => startServer({ env: model.env })));
  key = (await createKey(postgresSql(pg.client), { tenant: "nodes", env: "production" })).key;
  const hook = await call(nodes[C]!.url, "/v2/webhooks", { key, json: { url: `${rx.url}/hooks` } });
  expect(hook.status).toBe(201);

  const stopWatching = watchHolders();
  // Acknowledged before the kill: B's answers must not be cut by it.
  await Promise.all([A, B, C].flatMap((n) => [generate(n, `Tides, part ${n}`), generate(n, `Moons, part ${n}`)]));
  await Promise.all([A, B, C].map((n) => upload(n, [note(n)])));
  const streamed = [A, C].flatMap((n) => [stream(n, `Harbours, part ${n}`), stream(n, `Currents, part ${n}`)]);
  // B's last upload: a PDF it is still extracting when it dies.
  const pdf = await Bun.file(join(CORPUS, "pdf/REPAIR-2022-INV-001_multipage-tables.pdf")).bytes();
  const cut = fetch(`${nodes[B]!.url}/v2/documents/process`, {
    method: "POST",
    headers: headersFor(key, USER),
    body: uploadForm([{ name: VICTIM_UPLOAD, type: "application/pdf", bytes: pdf }]),
  }).catch(() => null);
  const victimPid = nodes[B]!.proc.pid;
  const state = await waitUntil(
    "node B holding a course job while ingesting its upload",
    async () => {
      const [job] = await pg.client<{ id: string }[]>`
        SELECT id FROM jobs WHERE status = 'running' AND type = 'course.generate' AND lease_owner LIKE ${`%:${victimPid}:%`} LIMIT 1`;
      const [doc] = await pg.client<{ id: string }[]>`
        SELECT id FROM documents WHERE filename = ${VICTIM_UPLOAD} AND status = 'processing'`;
      return { job: job?.id ?? "", doc: doc?.id ?? "" };
    },
    (s) => s.job !== "" && s.doc !== "",
    120_000,
    25,
  );
  await nodes[B]!.kill();
  victimJob = state.job;
  victimUpload = state.doc;
  await cut;

  // Work goes on through the nodes left.
  await Promise.all([...streamed, generate(A, "Estuaries"), generate(C, "Lagoons"), upload(C, [note(10)])]);
  await waitUntil("every job to end", jobsLeft, (n) => n === 0, 240_000, 250);
  const completed = [...courses.keys()].slice(0, 2);
  for (const [i, id] of completed.entries()) {
    const r = await call(nodes[i === 0 ? A : C]!.url, `/v2/courses/${id}/podcasts/generate?tts_provider=provider_a`, {
      key,
      user: USER,
      json: {},
    });
    expect(r.status).toBe(200);
  }
  await waitUntil("the podcasts to end", jobsLeft, (n) => n === 0, 240_000, 250);
  await stopWatching();
}, 600_000);

afterAll(async () => {
  for (const node of nodes) await node.stop();
  await model?.stop();
  rx?.stop();
  await pg?.stop();
  cleanup(shared);
});

test("node B was killed holding a course job, which another node finished after its lease", async () => {
  expect(nodes[B]!.proc.signalCode).toBe("SIGKILL");
  const seen = holders.get(victimJob)!;
  expect(seen.has(nodes[B]!.proc.pid)).toBe(true);
  expect([...seen].some((pid) => pid !== nodes[B]!.proc.pid)).toBe(true);
  const [job] = await pg.client`SELECT status, attempts FROM jobs WHERE id = ${victimJob}`;
  expect(job).toMatchObject({ status: "completed", attempts: 2 });
});

test("every job completed, and every acknowledged course was generated once, each chapter once", async () => {
  expect(courses.size).toBe(12);
  const jobs = await pg.client<{ status: string }[]>`SELECT status FROM jobs`;
  expect(jobs.every((j) => j.status === "completed")).toBe(true);
  const rows = await pg.client<{ id: string; status: string }[]>`SELECT id, status FROM courses`;
  expect(rows.map((r) => r.id).sort()).toEqual([...courses.keys()].sort());
  expect(rows.every((r) => r.status === "completed")).toBe(true);
  const duplicates = await pg.client`
    SELECT course_id, order_index FROM chapters GROUP BY course_id, order_index HAVING count(*) > 1`;
  expect(duplicates).toEqual([]);
  for (const id of courses.keys()) {
    const r = await call(nodes[A]!.url, `/v2/courses/${id}`, { key, user: USER });
    expect(r.status).toBe(200);
    expect(r.body.chapters.map((c: { order_index: number }) => c.order_index)).toEqual([...Array(CHAPTERS).keys()]);
  }
});

test("each course's completion was delivered to the webhook receiver, one event per course", async () => {
  const received = await rx.waitFor("/hooks", courses.size, 120_000);
  const byCourse = new Map<string, Set<string>>();
  for (const r of received) {
    const event = JSON.parse(r.raw);
    expect(event.event).toBe("course.completed");
    const deliveries = byCourse.get(event.data.course_id) ?? new Set();
    deliveries.add(r.headers["x-service-delivery"]!);
    byCourse.set(event.data.course_id, deliveries);
  }
  expect([...byCourse.keys()].sort()).toEqual([...courses.keys()].sort());
  // At least once: a node killed after sending and before recording resends the same delivery, never a second one.
  for (const deliveries of byCourse.values()) expect(deliveries.size).toBe(1);
  const undelivered = await pg.client`SELECT id, status FROM webhook_deliveries WHERE status <> 'delivered'`;
  expect(undelivered).toEqual([]);
});

test("a stream follows its course's outline, chapters and end, whichever node runs the job", async () => {
  expect(streams).toHaveLength(4);
  const elsewhere = streams.filter((s) => {
    const jobId = s.events.find((e) => e.event === "completed")?.data.job_id;
    return [...(holders.get(jobId) ?? [])].some((pid) => pid !== nodes[s.node]!.proc.pid);
  });
  console.log(`${elsewhere.length} of ${streams.length} streams followed a job another node ran`);
  for (const s of streams) {
    const names = s.events.map((e) => e.event);
    expect(names).toContain("outline");
    expect(names.filter((n) => n === "chapter").length).toBeGreaterThanOrEqual(CHAPTERS);
    expect(names.at(-1)).toBe("completed");
  }
});

test("the dead node's upload was ended by another node after its lease; acknowledged documents are ready", async () => {
  const [cut] = await pg.client`SELECT status, error FROM documents WHERE id = ${victimUpload}`;
  expect(cut).toEqual({ status: "error", error: ABANDONED_UPLOAD });
  const stuck = await pg.client`SELECT id FROM documents WHERE status = 'processing'`;
  expect(stuck).toEqual([]);
  for (const [id, chunks] of documents) {
    const r = await call(nodes[C]!.url, `/v2/documents/${id}`, { key, user: USER });
    expect(r.body).toMatchObject({ status: "ready", chunk_count: chunks });
  }
});

test("podcast episodes once each; a feed and a signed media URL made by one node are served by another", async () => {
  const [first] = [...courses.keys()];
  const listed = await call(nodes[A]!.url, `/v2/courses/${first}/podcasts`, { key, user: USER });
  expect(listed.body.episodes.map((e: { chapter_order: number }) => e.chapter_order)).toEqual([
    ...Array(CHAPTERS).keys(),
  ]);
  expect(listed.body.episodes.every((e: { status: string }) => e.status === "ready")).toBe(true);
  const duplicates = await pg.client`
    SELECT course_id, chapter_order FROM podcast_episodes GROUP BY course_id, chapter_order HAVING count(*) > 1`;
  expect(duplicates).toEqual([]);

  const audioUrl = new URL(listed.body.episodes[0].audio_url);
  const audio = await fetch(`${nodes[C]!.url}${audioUrl.pathname}${audioUrl.search}`);
  expect(audio.status).toBe(200);
  expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(100);

  const feed = await call(nodes[A]!.url, `/v2/courses/${first}/podcasts/feed`, { key, user: USER, method: "POST" });
  expect(feed.status).toBe(201);
  const feedUrl = new URL(feed.body.feed_url);
  const rss = await fetch(`${nodes[C]!.url}${feedUrl.pathname}`);
  expect(rss.status).toBe(200);
  expect(await rss.text()).toContain("<enclosure");
});
