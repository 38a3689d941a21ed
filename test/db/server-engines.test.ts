/**
 * The whole server on each engine (#34): a server process started without DATABASE_URL (SQLite in
 * its data directory) and one started with DATABASE_URL on a throwaway PostgreSQL cluster run the
 * same path through HTTP: a key made by the CLI on that database, a PDF uploaded and processed
 * (extracted and indexed by an extraction process), a question answered from it, a course
 * generated from the learner's documents (its topic matched and planned in the engine's thread)
 * and read, a quiz attempt, and the course.completed webhook delivered. On PostgreSQL without
 * pgvector (Debian's 15 has none) the server says so once and searches by full text.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { settle } from "../courses/helpers.ts";
import { startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { BUN, call, cleanup, ROOT, startServer, type TestServer, tempDir, testServerEnv } from "../helpers/server.ts";
import { type Receiver, startReceiver, verifySignature } from "../webhooks/receiver.ts";

const PDF = join(ROOT, "../shared/corpus/pdf/dpr-paper-multi-column.pdf");
const TOPIC = "Dense passage retrieval for open-domain question answering";
const NO_PGVECTOR = "the PostgreSQL server has no pgvector extension";

const ENGINES: [string, boolean][] = [
  ["SQLite", false],
  ["PostgreSQL", true],
];

describe.each(ENGINES)("the server on %s, end to end through HTTP", (engine, onPostgres) => {
  const dir = tempDir("cf-server-engines-");
  let pg: TestPostgres | null = null;
  let rx: Receiver;
  let srv: TestServer;
  let env: Record<string, string>;
  let key: string;
  let secret: string;
  const user = "reader";

  beforeAll(async () => {
    pg = onPostgres ? await startPostgres() : null;
    rx = startReceiver(dir);
    env = {
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      NODE_EXTRA_CA_CERTS: rx.certFile,
      OUTBOUND_ALLOW: "127.0.0.1",
      RATE_LIMIT_PER_MINUTE: "10000",
    };
    srv = await startServer({ env });
    // The CLI, as an operator makes a key: on the database the settings name.
    const made = Bun.spawnSync(
      [BUN, join(ROOT, "src/main.ts"), "keys", "create", "--tenant", "acme", "--env", "test"],
      {
        cwd: ROOT,
        env: { ...process.env, ...testServerEnv(srv.dataDir), ...env },
      },
    );
    expect(made.exitCode).toBe(0);
    key = made.stdout.toString().trim().split("\n").pop()!;
    const hook = await call(srv.url, "/v2/webhooks", { key, json: { url: `${rx.url}/hooks` } });
    expect(hook.status).toBe(201);
    secret = hook.body.secret;
  }, 300_000);
  afterAll(async () => {
    await srv?.stop();
    rx?.stop();
    await pg?.stop();
    cleanup(dir);
  });

  test(`runs on ${engine}, and says once when search has no vectors`, () => {
    const out = srv.output();
    expect(out).toContain(`"database":"${onPostgres ? "postgres" : "sqlite"}"`);
    expect(out.split(NO_PGVECTOR).length - 1).toBe(onPostgres ? 1 : 0);
  });

  test("upload and process, a question, a course generated and read, a quiz attempt, the webhook", async () => {
    const form = new FormData();
    form.append("files", new File([readFileSync(PDF)], "dpr-paper-multi-column.pdf", { type: "application/pdf" }));
    const processed = await call(srv.url, "/v2/documents/process", { key, user, body: form });
    expect(processed.status).toBe(200);
    const [doc] = processed.body.documents;
    expect(doc.status).toBe("ready");
    expect(doc.chunk_count).toBeGreaterThan(10);

    const asked = await call(srv.url, "/v2/documents/query", {
      key,
      user,
      json: { question: "How are passages encoded for retrieval?", document_ids: [doc.id] },
    });
    expect(asked.status).toBe(200);
    expect(asked.body.sources.length).toBeGreaterThan(0);
    expect(asked.body.sources.every((s: { document_id: string }) => s.document_id === doc.id)).toBe(true);

    const started = await call(srv.url, "/v2/courses/generate", { key, user, json: { topic: TOPIC, num_chapters: 2 } });
    expect(started.status).toBe(202);
    const courseId = started.body.course_id;
    expect((await settle(srv.url, key, user, courseId)).course_status).toBe("completed");
    const course = await call(srv.url, `/v2/courses/${courseId}`, { key, user });
    expect(course.status).toBe(200);
    expect(course.body.chapters).toHaveLength(2);
    const questions: { answer: unknown }[] = course.body.chapters[0].quiz.questions;
    expect(questions.length).toBeGreaterThan(0);

    const attempt = await call(srv.url, `/v2/courses/${courseId}/chapters/0/quiz-attempts`, {
      key,
      user,
      json: { answers: questions.map((q) => q.answer) },
    });
    expect(attempt.status).toBe(200);
    expect(attempt.body.results.every((r: { correct: boolean }) => r.correct)).toBe(true);
    const stored = await call(srv.url, `/v2/courses/${courseId}/chapters/0/quiz-attempts/${attempt.body.attempt_id}`, {
      key,
      user,
    });
    expect(stored.status).toBe(200);

    const [delivered] = await rx.waitFor("/hooks", 1, 120_000);
    expect(verifySignature(secret, delivered!.raw, delivered!.headers["x-service-signature"])).toBe(true);
    const event = JSON.parse(delivered!.raw);
    expect(event.event).toBe("course.completed");
    expect(event.data.course_id).toBe(courseId);
    expect(event.data.chapters_count).toBe(2);
  }, 600_000);
});
