/**
 * `courseforge migrate-to-postgres` (#34): a SQLite data directory (a course with its chapters,
 * quiz, deck and exam; a key and its tenant's test environment, which references its tenant; an
 * indexed document) copied by the CLI into an empty PostgreSQL database: every table's count the
 * same, the course read the same through the seam, the document's chunks found by PostgreSQL's
 * full text, and a new chunk numbered after the copied ones. A second copy into the now full
 * database is refused and changes nothing.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readCourse } from "../../src/courses/read.ts";
import { openDb } from "../../src/db/index.ts";
import { postgresSql, raw, type Sql, sql, sqliteSql } from "../../src/db/sql.ts";
import { resultOfMarkdown } from "../../src/ingest/result.ts";
import { builtinEmbedder } from "../../src/retrieval/embedders/builtin.ts";
import { indexDocument } from "../../src/retrieval/index.ts";
import { search } from "../../src/retrieval/search.ts";
import { createKey } from "../../src/tenants/keys.ts";
import { startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { type SeededCourse, seedCourse } from "../helpers/seed-course.ts";
import { BUN, cleanup, ROOT, tempDir, testServerEnv } from "../helpers/server.ts";

const embedder = builtinEmbedder();
const dir = tempDir("cf-migrate-pg-");
let pg: TestPostgres;
let lite: Sql;
let closeLite: () => void;
let seeded: SeededCourse;
const documentId = crypto.randomUUID();

const migrate = () =>
  Bun.spawnSync([BUN, "src/main.ts", "migrate-to-postgres"], {
    cwd: ROOT,
    env: { ...process.env, ...testServerEnv(dir), DATABASE_URL: pg.url },
  });

const TABLES = ["tenants", "api_keys", "users", "courses", "chapters", "quiz_questions", "flashcard_decks", "exams"];
const tableCounts = async (db: Sql) => {
  const counts: Record<string, number> = {};
  for (const t of [...TABLES, "documents", "retrieval_chunks"])
    counts[t] = Number((await db.get<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${raw(t)}`))!.n);
  return counts;
};

beforeAll(async () => {
  pg = await startPostgres();
  const { sqlite } = await openDb(dir);
  lite = sqliteSql(sqlite);
  closeLite = () => sqlite.close();
  seeded = await seedCourse(lite, "acme", 3);
  await createKey(lite, { tenant: "acme", env: "test" });
  const owner = seeded.owner;
  await lite.run(
    sql`INSERT INTO documents (id, tenant_id, user_id, kind, filename, source_type, status, created_at)
        VALUES (${documentId}, ${owner.tenantId}, ${owner.userId}, 'index', 'glaciers.md', 'file', 'ready', ${new Date().toISOString()})`,
  );
  await indexDocument(
    { sql: lite, embedder },
    {
      ...owner,
      documentId,
      spaceId: null,
      extract: resultOfMarkdown("# Glaciers\n\nGlaciers carve U-shaped valleys as the ice grinds the bedrock.", {
        title: null,
      }),
    },
  );
  closeLite();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
  cleanup(dir);
});

test("the CLI copies every table into an empty PostgreSQL, counts checked, and the copy serves reads and search", async () => {
  const done = migrate();
  expect(done.stderr.toString()).toBe("");
  expect(done.exitCode).toBe(0);
  const { sqlite } = await openDb(dir);
  lite = sqliteSql(sqlite);
  try {
    const db = postgresSql(pg.client);
    const before = await tableCounts(lite);
    expect(before.retrieval_chunks).toBeGreaterThan(0);
    expect(await tableCounts(db)).toEqual(before);
    expect(await readCourse(db, seeded.owner, seeded.courseId)).toEqual(
      await readCourse(lite, seeded.owner, seeded.courseId),
    );
    const [hit] = await search(
      { sql: db, embedder },
      { ...seeded.owner, scope: {}, query: "glaciers carve valleys", topK: 3, mode: "lexical" },
    );
    expect(hit?.documentId).toBe(documentId);
    const next = await db.get<{ seq: number }>(
      sql`INSERT INTO retrieval_chunks (id, tenant_id, user_id, document_id, position, text, embedder, dimension, created_at)
          VALUES (${crypto.randomUUID()}, ${seeded.owner.tenantId}, ${seeded.owner.userId}, ${documentId}, 99, 'More ice.',
                  'test', 4, ${new Date().toISOString()})
          RETURNING seq`,
    );
    const last = await lite.get<{ seq: number }>(sql`SELECT max(seq) AS seq FROM retrieval_chunks`);
    expect(Number(next!.seq)).toBeGreaterThan(last!.seq);
  } finally {
    sqlite.close();
  }
});

test("a second copy into the database, no longer empty, is refused and adds nothing", async () => {
  const db = postgresSql(pg.client);
  const before = await tableCounts(db);
  const again = migrate();
  expect(again.exitCode).toBe(2);
  expect(again.stderr.toString()).toContain("the PostgreSQL database is not empty");
  expect(await tableCounts(db)).toEqual(before);
});
