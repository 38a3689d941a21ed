/**
 * The chunk reads course building does (chunk-reads.ts) and the extractive thread's reads of a
 * whole source (a topic's match, a document's paragraphs and repeats), on both engines: the thread
 * opens the database by its address (read-only.ts), the SQLite file or a PostgreSQL URL. Each engine
 * indexes the same documents by its own write path.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { readTopicMatch } from "../../src/courses/topic-match.ts";
import { openDb } from "../../src/db/index.ts";
import { migratePostgres } from "../../src/db/postgres/migrate.ts";
import { readOnlySql } from "../../src/db/read-only.ts";
import { postgresSql, type Sql, sql, sqliteSql } from "../../src/db/sql.ts";
import { detectRepeats } from "../../src/documents/repeated-sections.ts";
import { TEACHING_ROLE_LIST } from "../../src/ingest/document.ts";
import { resultOfMarkdown } from "../../src/ingest/result.ts";
import { chunksWithAnyWord, chunkTexts, documentChunkState, documentChunks } from "../../src/retrieval/chunk-reads.ts";
import { builtinEmbedder } from "../../src/retrieval/embedders/builtin.ts";
import { indexDocument } from "../../src/retrieval/index-chunks.ts";
import { newId, nowIso } from "../../src/util.ts";
import { startPostgres } from "../helpers/postgres.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const embedder = builtinEmbedder();

interface Store {
  db: Sql;
  /** What the extractive thread is handed to open the database (read-only.ts). */
  address: string;
  close(): Promise<void>;
}

async function sqliteStore(): Promise<Store> {
  const dir = tempDir("cf-chunk-reads-");
  const o = await openDb(dir);
  return {
    db: sqliteSql(o.sqlite),
    address: join(dir, "courseforge.db"),
    async close() {
      o.sqlite.close();
      cleanup(dir);
    },
  };
}

async function postgresStore(): Promise<Store> {
  const pg = await startPostgres();
  await migratePostgres(pg.client);
  return { db: postgresSql(pg.client), address: pg.url, close: () => pg.stop() };
}

const GLACIERS = `# Glaciers

## Ice and rock

Glaciers carve deep valleys as moving ice grinds the bedrock beneath them.

## Moraines

Moraines are ridges of rock and gravel that a glacier pushes ahead of it and leaves behind as it melts.

## Rivers

Rivers carry the meltwater of glaciers down to the sea.`;

const COOKING = "# Bread\n\nBread rises as yeast ferments the sugars of the dough.";

interface Owner {
  tenantId: string;
  userId: string;
}

async function seedOwner(db: Sql): Promise<Owner> {
  const owner = { tenantId: newId(), userId: newId() };
  await db.run(
    sql`INSERT INTO tenants (id, name, created_at) VALUES (${owner.tenantId}, ${owner.tenantId}, ${nowIso()})`,
  );
  await db.run(
    sql`INSERT INTO users (id, tenant_id, external_id, created_at)
        VALUES (${owner.userId}, ${owner.tenantId}, ${owner.userId}, ${nowIso()})`,
  );
  return owner;
}

async function addDoc(db: Sql, owner: Owner, markdown: string, status: "ready" | "processing"): Promise<string> {
  const id = newId();
  await db.run(
    sql`INSERT INTO documents (id, tenant_id, user_id, kind, filename, source_type, status, created_at)
        VALUES (${id}, ${owner.tenantId}, ${owner.userId}, 'index', ${`${id}.md`}, 'file', 'processing', ${nowIso()})`,
  );
  await indexDocument(
    { sql: db, embedder },
    { ...owner, documentId: id, spaceId: null, extract: resultOfMarkdown(markdown, { title: null }) },
  );
  await db.run(sql`UPDATE documents SET status = ${status} WHERE id = ${id}`);
  return id;
}

describe.each([
  ["SQLite", sqliteStore],
  ["PostgreSQL", postgresStore],
] as const)("%s", (_name, open) => {
  let store: Store;
  let learner: Owner;
  let glaciers: string;
  let processing: string;
  let otherLearnersDoc: string;

  beforeAll(async () => {
    store = await open();
    learner = await seedOwner(store.db);
    const other = await seedOwner(store.db);
    glaciers = await addDoc(store.db, learner, GLACIERS, "ready");
    await addDoc(store.db, learner, COOKING, "ready");
    processing = await addDoc(
      store.db,
      learner,
      "# Glacier notes\n\nA glacier moraine still being indexed.",
      "processing",
    );
    otherLearnersDoc = await addDoc(store.db, other, "# Moraines\n\nGlacier moraines of another learner.", "ready");
  }, 120_000);
  afterAll(() => store.close());

  test("a document's teaching chunks come back in reading order, and their texts by id", async () => {
    const chunks = await documentChunks(store.db, glaciers, TEACHING_ROLE_LIST);
    expect(chunks.length).toBeGreaterThan(0);
    const text = chunks.map((c) => c.text).join("\n");
    expect(text.indexOf("carve deep valleys")).toBeLessThan(text.indexOf("Moraines are ridges"));
    expect(text.indexOf("Moraines are ridges")).toBeLessThan(text.indexOf("meltwater"));
    expect(chunks.every((c) => c.filename === `${glaciers}.md`)).toBe(true);

    const texts = await chunkTexts(store.db, [chunks[0]!.id, "no-such-chunk"]);
    expect([...texts]).toEqual([[chunks[0]!.id, chunks[0]!.text]]);
    expect(await documentChunkState(store.db, glaciers)).toMatchObject({ n: chunks.length });
  });

  test("the learner's ready chunks holding any of the words, none of another learner's or still processing", async () => {
    const found = await chunksWithAnyWord(store.db, learner, ["moraines", "bedrock"], TEACHING_ROLE_LIST, 50);
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((c) => c.document_id))).toEqual(new Set([glaciers]));
    expect(found.some((c) => c.text.includes("Moraines are ridges"))).toBe(true);
    expect(found.some((c) => c.document_id === processing || c.document_id === otherLearnersDoc)).toBe(false);
    expect(await chunksWithAnyWord(store.db, learner, ["sourdough"], TEACHING_ROLE_LIST, 50)).toEqual([]);
  });

  test("the extractive thread's reads, on a connection opened by the database's address", async () => {
    const thread = readOnlySql(store.address);
    expect(thread.dialect).toBe(store.db.dialect);
    const match = await readTopicMatch(thread, learner, "glacier moraines");
    expect(match.searched).toBe(2);
    expect(match.documentIds).toEqual([glaciers]);
    expect(match.passages.some((p) => p.text.includes("Moraines are ridges"))).toBe(true);
    const repeats = await detectRepeats(thread, glaciers);
    expect(repeats.words).toBeGreaterThan(20);
    // The first topic match loads the stem frequencies list.
  }, 60_000);
});
