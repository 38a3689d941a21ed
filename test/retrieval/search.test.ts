import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { type OpenedDb, openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { createDocumentRecord, deleteDocument, markDocumentReady } from "../../src/documents/records.ts";
import { resultOfMarkdown } from "../../src/ingest/result.ts";
import type { ExtractResult } from "../../src/ingest/types.ts";
import { blobPath, putBlob } from "../../src/media/blob-store.ts";
import { builtinEmbedder } from "../../src/retrieval/embedders/builtin.ts";
import {
  type IndexDeps,
  indexChapter,
  indexDocument,
  type RetrievalDeps,
  type SearchScope,
  search,
} from "../../src/retrieval/index.ts";
import { reindexAll, staleChunkCount } from "../../src/retrieval/reindex.ts";
import { ensureTenant } from "../../src/tenants/keys.ts";
import { newId, nowIso } from "../../src/util.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const embedder = builtinEmbedder();
let dir: string;
let opened: OpenedDb;
let deps: RetrievalDeps & IndexDeps & { sqlite: OpenedDb["sqlite"] };

beforeAll(async () => {
  dir = tempDir("cf-retrieval-");
  opened = await openDb(dir);
  deps = { sqlite: opened.sqlite, sql: sqliteSql(opened.sqlite), embedder };
});
afterAll(() => {
  opened.sqlite.close();
  cleanup(dir);
});

interface Owner {
  tenantId: string;
  userId: string;
}

async function newOwner(tenant: string): Promise<Owner> {
  const { id: tenantId } = await ensureTenant(sqliteSql(opened.sqlite), tenant);
  const userId = newId();
  opened.sqlite.run("INSERT INTO users (id, tenant_id, external_id, created_at) VALUES (?, ?, ?, ?)", [
    userId,
    tenantId,
    userId,
    nowIso(),
  ]);
  return { tenantId, userId };
}

const extractOf = (markdown: string, title: string | null = null): ExtractResult =>
  resultOfMarkdown(markdown, { title });

async function addDoc(
  owner: Owner,
  markdown: string,
  opts: { spaceId?: string | null; filename?: string } = {},
): Promise<string> {
  const id = await createDocumentRecord(sqliteSql(deps.sqlite), owner, {
    filename: opts.filename ?? `${newId()}.md`,
    sourceType: "file",
    spaceId: opts.spaceId ?? null,
  });
  const extract = extractOf(markdown);
  const { chunkCount } = await indexDocument(deps, { ...owner, documentId: id, extract });
  await markDocumentReady(sqliteSql(deps.sqlite), id, {
    blobKey: null,
    mimeType: "text/markdown",
    pages: 1,
    markdown,
    title: null,
    chunkCount,
  });
  return id;
}

const count = (sql: string, ...params: (string | number)[]) =>
  deps.sqlite.query<{ n: number }, (string | number)[]>(sql).get(...params)!.n;

/** Deterministic PRNG so a failing seed can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY =
  "protein enzyme membrane neuron synapse receptor glucose insulin kinase mutation genome vaccine antibody virus bacteria tumor cell tissue liver kidney heart lung blood plasma hormone signal pathway channel ion calcium sodium potassium".split(
    " ",
  );

describe("tenant and learner isolation", () => {
  test("randomized: across 4 tenants × 2 learners sharing vocabulary and space names, every hit is the caller's and in scope", async () => {
    const seed = 20240611;
    const rand = prng(seed);
    const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)]!;
    const sentence = () =>
      `The ${pick(VOCABULARY)} binds the ${pick(VOCABULARY)} near the ${pick(VOCABULARY)} in every ${pick(VOCABULARY)}.`;

    const owners: { owner: Owner; docs: { id: string; space: string }[] }[] = [];
    for (let t = 0; t < 4; t++) {
      for (let u = 0; u < 2; u++) {
        const owner = await newOwner(`iso-tenant-${t}`);
        const docs = [];
        for (let d = 0; d < 4; d++) {
          const space = pick(["lab", "clinic"]);
          const body = Array.from({ length: 4 + Math.floor(rand() * 20) }, sentence).join(" ");
          docs.push({ id: await addDoc(owner, `# Notes ${t}-${u}-${d}\n\n${body}`, { spaceId: space }), space });
        }
        owners.push({ owner, docs });
      }
    }

    let hits = 0;
    for (let round = 0; round < 60; round++) {
      const { owner, docs } = pick(owners);
      const kind = pick(["all", "ids", "space"] as const);
      const chosen = docs.filter(() => rand() < 0.5);
      const ids = chosen.length > 0 ? chosen.map((d) => d.id) : [docs[0]!.id];
      const space = pick(["lab", "clinic"]);
      const scope: SearchScope = kind === "all" ? {} : kind === "ids" ? { documentIds: ids } : { spaceId: space };
      const allowed = new Set(
        kind === "all"
          ? docs.map((d) => d.id)
          : kind === "ids"
            ? ids
            : docs.filter((d) => d.space === space).map((d) => d.id),
      );
      const query = `${pick(VOCABULARY)} ${pick(VOCABULARY)} ${pick(VOCABULARY)}`;
      for (const mode of ["hybrid", "vector", "lexical"] as const) {
        const found = await search(deps, { ...owner, scope, query, topK: 20, mode });
        for (const h of found) {
          if (!allowed.has(h.documentId!))
            throw new Error(
              `seed ${seed} round ${round}: ${mode} search leaked ${h.documentId} (scope ${JSON.stringify(scope)})`,
            );
        }
        hits += found.length;
      }
    }
    expect(hits).toBeGreaterThan(300);
  });

  test("another tenant's many close matches never push the caller's chunk out of the top results", async () => {
    const mine = await newOwner("crowd-victim");
    const crowd = await newOwner("crowd-other");
    const text = "Photosynthesis converts light energy into chemical energy in chloroplasts.";
    const myDoc = await addDoc(mine, `# Plants\n\n${text} Plants store it as sugar.`);
    for (let i = 0; i < 60; i++) await addDoc(crowd, `# Copy ${i}\n\n${text}`);
    for (const mode of ["hybrid", "vector", "lexical"] as const) {
      const found = await search(deps, {
        ...mine,
        scope: {},
        query: "photosynthesis light energy chloroplasts",
        topK: 3,
        mode,
      });
      expect(found.map((h) => h.documentId)).toEqual([myDoc]);
    }
    // Same tenant, other learner: invisible when the learner is given.
    const sibling = { tenantId: mine.tenantId, userId: (await newOwner("crowd-victim")).userId };
    expect(
      await search(deps, { ...sibling, scope: { documentIds: [myDoc] }, query: "photosynthesis", topK: 5 }),
    ).toEqual([]);
  });
});

describe("scope", () => {
  let owner: Owner;
  let a: string;
  let b: string;
  let c: string;
  let courseId: string;
  let chapterId: string;

  beforeAll(async () => {
    owner = await newOwner("scope-tenant");
    a = await addDoc(owner, "# Alpha\n\nGlaciers carve U-shaped valleys as they move.", {
      spaceId: "geo",
      filename: "alpha.md",
    });
    b = await addDoc(owner, "# Beta\n\nRivers carve V-shaped valleys by erosion.", { spaceId: "geo" });
    c = await addDoc(owner, "# Gamma\n\nVolcanoes form where magma reaches the surface of valleys.", {
      spaceId: "other",
    });
    courseId = newId();
    chapterId = newId();
    const now = nowIso();
    deps.sqlite.run(
      `INSERT INTO courses (id, tenant_id, user_id, title, topic, slug, source_type, status, num_chapters, created_at, updated_at)
       VALUES (?, ?, ?, 'Landforms', 'Landforms', 'landforms', 'files', 'completed', 1, ?, ?)`,
      [courseId, owner.tenantId, owner.userId, now, now],
    );
    deps.sqlite.run(
      "INSERT INTO chapters (id, course_id, order_index, title, status, created_at) VALUES (?, ?, 0, 'Valleys', 'completed', ?)",
      [chapterId, courseId, now],
    );
    deps.sqlite.run("INSERT INTO course_documents (course_id, document_id) VALUES (?, ?)", [courseId, a]);
    await indexChapter(deps, {
      ...owner,
      courseId,
      chapterId,
      title: "Valleys",
      markdown: "Valleys are low areas between hills, often with a river.",
    });
  });

  const docsOf = async (scope: SearchScope) =>
    new Set(
      (await search(deps, { ...owner, scope, query: "valleys", topK: 20 })).map(
        (h) => h.documentId ?? `chapter:${h.chapterId}`,
      ),
    );

  test("document ids, space, course (its chapters and linked documents), and everything", async () => {
    expect(await docsOf({ documentIds: [b, c] })).toEqual(new Set([b, c]));
    expect(await docsOf({ spaceId: "geo" })).toEqual(new Set([a, b]));
    expect(await docsOf({ spaceId: "nowhere" })).toEqual(new Set());
    expect(await docsOf({ courseId })).toEqual(new Set([a, `chapter:${chapterId}`]));
    expect(await docsOf({})).toEqual(new Set([a, b, c]));
  });

  test("hits carry citation fields; the score is the cosine of query and chunk", async () => {
    const [hit] = await search(deps, {
      ...owner,
      scope: { documentIds: [a] },
      query: "glaciers carve valleys",
      topK: 1,
    });
    expect(hit).toMatchObject({
      documentId: a,
      chapterId: null,
      filename: "alpha.md",
      headingPath: ["Alpha"],
      page: null,
      position: 0,
    });
    expect(hit!.text).toBe("Glaciers carve U-shaped valleys as they move.");
    const [q, chunk] = await embedder.embed(["glaciers carve valleys", `Alpha\n\n${hit!.text}`]);
    expect(hit!.score).toBeCloseTo(
      q!.reduce((s, x, i) => s + x * chunk![i]!, 0),
      5,
    );
  });

  test("re-indexing a chapter replaces its chunks", async () => {
    await indexChapter(deps, { ...owner, courseId, chapterId, title: "Valleys", markdown: "Canyons are deep gorges." });
    expect(count("SELECT count(*) AS n FROM retrieval_chunks WHERE chapter_id = ?", chapterId)).toBe(1);
    const found = await search(deps, { ...owner, scope: { courseId }, query: "canyons gorges", topK: 1 });
    expect(found[0]).toMatchObject({ chapterId, courseId, documentId: null, filename: null, headingPath: ["Valleys"] });
  });
});

describe("deletion and re-embedding", () => {
  test("deleteDocument removes the record, chunks, FTS rows, vectors and the stored original", async () => {
    const owner = await newOwner("delete-tenant");
    const id = await addDoc(owner, `# Doomed\n\n${"Ephemeral zebra facts. ".repeat(200)}`);
    const blob = await putBlob({ blobDir: dir }, new TextEncoder().encode("original"), { ext: "md" });
    deps.sqlite.run("UPDATE documents SET blob_key = ? WHERE id = ?", [blob.key, id]);
    const seqs = deps.sqlite
      .query<{ seq: number }, [string]>("SELECT seq FROM retrieval_chunks WHERE document_id = ?")
      .all(id)
      .map((r) => r.seq);
    expect(seqs.length).toBeGreaterThan(1);
    const vecTable = deps.sqlite
      .query<{ table_name: string }, []>("SELECT table_name FROM retrieval_vector_tables")
      .get()!.table_name;
    const inFts = () => count("SELECT count(*) AS n FROM retrieval_fts WHERE retrieval_fts MATCH 'zebra'");
    const inVec = () =>
      count(
        `SELECT count(*) AS n FROM ${vecTable} WHERE chunk_seq IN (SELECT value FROM json_each(?))`,
        JSON.stringify(seqs),
      );
    expect(inFts()).toBe(seqs.length);
    expect(inVec()).toBe(seqs.length);

    await deleteDocument({ sql: sqliteSql(deps.sqlite), cfg: { blobDir: dir } }, owner, id);
    expect(count("SELECT count(*) AS n FROM documents WHERE id = ?", id)).toBe(0);
    expect(count("SELECT count(*) AS n FROM retrieval_chunks WHERE document_id = ?", id)).toBe(0);
    expect(inFts()).toBe(0);
    expect(inVec()).toBe(0);
    expect(existsSync(blobPath(dir, blob.key))).toBe(false);
    await expect(
      deleteDocument({ sql: sqliteSql(deps.sqlite), cfg: { blobDir: dir } }, owner, id),
    ).rejects.toMatchObject({ status: 404 });
  });

  test("after a change of embedder, search still scores by the new one, and reindex moves every vector", async () => {
    const owner = await newOwner("reindex-tenant");
    const id = await addDoc(owner, "# Tides\n\nThe moon's gravity raises ocean tides twice a day.");
    const next = { ...deps, embedder: builtinEmbedder(128, "test") };
    const stale = await staleChunkCount(next);
    expect(stale).toBe(count("SELECT count(*) AS n FROM retrieval_chunks"));

    const before = await search(next, { ...owner, scope: { documentIds: [id] }, query: "moon tides", topK: 1 });
    expect(before[0]!.documentId).toBe(id);
    expect(before[0]!.score).toBeGreaterThan(0.2);

    const progress: number[] = [];
    const { done, total } = await reindexAll(next, { batchSize: 7, onProgress: (p) => progress.push(p.done) });
    expect(done).toBe(stale);
    expect(total).toBe(stale);
    expect(progress.at(-1)).toBe(stale);
    expect(await staleChunkCount(next)).toBe(0);
    const oldTable = deps.sqlite
      .query<{ table_name: string }, []>("SELECT table_name FROM retrieval_vector_tables WHERE dimension = 384")
      .get()!.table_name;
    expect(count(`SELECT count(*) AS n FROM ${oldTable}`)).toBe(0);

    const after = await search(next, {
      ...owner,
      scope: { documentIds: [id] },
      query: "moon tides",
      topK: 1,
      mode: "vector",
    });
    expect(after[0]!.documentId).toBe(id);
    expect(after[0]!.score).toBeCloseTo(before[0]!.score, 5);
  });
});
