/**
 * The documents owner's storage on both engines: SQLite (the server's) and PostgreSQL (a throwaway
 * cluster). A record is created `processing`, read only by its learner of its tenant, listed newest
 * first through the keyset cursor, ends ready or failed (and a failed one is reopened), and its
 * delete takes its chunks and course links along, once: of two deletes at once one answers 404.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { raw, type Sql, sql } from "../../src/db/sql.ts";
import { extractedMarkdown } from "../../src/documents/extract.ts";
import { reopenFailedDocuments } from "../../src/documents/lookups.ts";
import {
  assertOwnedDocuments,
  createDocumentRecord,
  type DocumentOwner,
  deleteDocument,
  failInterruptedDocuments,
  listDocuments,
  loadDocument,
  loadOwnedDocument,
  markDocumentError,
  markDocumentReady,
  type RecordOwner,
  recordSummaries,
  recordsOldestFirst,
  toDocumentResource,
} from "../../src/documents/records.ts";
import { blobPath, putBlob } from "../../src/media/blob-store.ts";
import { newId } from "../../src/util.ts";
import { ENGINES, type Engine } from "../helpers/engines.ts";
import { seedCourse } from "../helpers/seed-course.ts";
import { cleanup, tempDir } from "../helpers/server.ts";

const upload = (filename: string, spaceId: string | null = null) => ({
  filename,
  sourceType: "file" as const,
  spaceId,
});

const ready = (markdown: string, chunkCount: number) => ({
  blobKey: null,
  mimeType: "text/markdown",
  pages: 1,
  markdown,
  title: "Graphs",
  chunkCount,
});

/** A chunk of the document, written as retrieval would (only its deletion is checked here). */
async function addChunk(db: Sql, owner: DocumentOwner, documentId: string, position: number): Promise<void> {
  await db.run(
    sql`INSERT INTO retrieval_chunks (id, tenant_id, user_id, document_id, position, text, embedder, dimension, created_at)
        VALUES (${newId()}, ${owner.tenantId}, ${owner.userId}, ${documentId}, ${position}, 'Nodes and edges.', 'test', 4,
                ${new Date().toISOString()})`,
  );
}

const countOf = async (db: Sql, table: string, documentId: string) =>
  (await db.get<{ n: number }>(
    sql`SELECT CAST(count(*) AS INTEGER) AS n FROM ${raw(table)} WHERE document_id = ${documentId}`,
  ))!.n;

describe.each(ENGINES)("document records on %s", (_, open) => {
  let e: Engine;
  const dataDir = tempDir("cf-doc-blobs-");

  // initdb on a loaded machine takes longer than a hook's default 5 s.
  beforeAll(async () => {
    e = await open();
  }, 120_000);
  afterAll(async () => {
    await e?.close();
    cleanup(dataDir);
  });

  test("a record is created processing and read by its learner of its tenant, never by another", async () => {
    const { owner } = await seedCourse(e.db, "readers");
    const other = (await seedCourse(e.db, "others")).owner;
    const id = await createDocumentRecord(e.db, owner, upload("graphs.md", "space-1"));
    expect(await loadOwnedDocument(e.db, owner, id)).toMatchObject({
      id,
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      filename: "graphs.md",
      space_id: "space-1",
      status: "processing",
      chunk_count: 0,
      billed_micros: 0,
    });
    await expect(loadOwnedDocument(e.db, other, id)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
    // The same learner id under another tenant is another learner.
    await expect(loadOwnedDocument(e.db, { ...owner, tenantId: other.tenantId }, id)).rejects.toMatchObject({
      code: "DOCUMENT_NOT_FOUND",
    });
    await expect(assertOwnedDocuments(e.db, owner, [id])).resolves.toBeUndefined();
    const missing = newId();
    await expect(assertOwnedDocuments(e.db, other, [id, missing])).rejects.toThrow(
      `Documents not found: ${id}, ${missing}`,
    );
  });

  test("at start a node marks interrupted its own uploads still processing; on PostgreSQL never another node's", async () => {
    const { owner } = await seedCourse(e.db, "restarts");
    const mine = await createDocumentRecord(e.db, owner, { ...upload("mine.md"), ingestNode: "node-a" });
    const theirs = await createDocumentRecord(e.db, owner, { ...upload("theirs.md"), ingestNode: "node-b" });
    const unclaimed = await createDocumentRecord(e.db, owner, upload("copied.md"));
    await failInterruptedDocuments({ sql: e.db }, "node-a");
    const status = async (id: string) => (await loadDocument(e.db, id)).status;
    expect([await status(mine), await status(theirs), await status(unclaimed)]).toEqual(
      // SQLite's data directory has one server: every upload still processing was its own.
      e.db.dialect === "postgres" ? ["error", "processing", "error"] : ["error", "error", "error"],
    );
  });

  test("records asked for in any order come back oldest first, as a course reads its sources", async () => {
    const { owner } = await seedCourse(e.db, "sources");
    const ids: string[] = [];
    for (const name of ["first.md", "second.md", "third.md"])
      ids.push(await createDocumentRecord(e.db, owner, upload(name)));
    const read = await recordsOldestFirst(e.db, [...ids].reverse());
    expect(read.map((r) => r.id)).toEqual(ids);
    expect(read.map((r) => r.filename)).toEqual(["first.md", "second.md", "third.md"]);
    expect(await recordsOldestFirst(e.db, [newId()])).toEqual([]);
  });

  test("an extract record is no learner's indexed document, and may have no learner at all", async () => {
    const { owner } = await seedCourse(e.db, "extracts");
    const anonymous: RecordOwner = { tenantId: owner.tenantId, userId: null };
    const id = await createDocumentRecord(e.db, anonymous, { ...upload("scan.pdf"), kind: "extract" });
    expect((await loadDocument(e.db, id)).user_id).toBeNull();
    const own = await createDocumentRecord(e.db, owner, { ...upload("notes.pdf"), kind: "extract" });
    await expect(loadOwnedDocument(e.db, owner, own)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
    expect((await listDocuments(e.db, owner, { limit: 10 })).data).toEqual([]);
  });

  test("the list pages newest first through the keyset cursor, each record once, the space's alone when asked", async () => {
    const { owner } = await seedCourse(e.db, "lister");
    const other = (await seedCourse(e.db, "neighbour")).owner;
    await createDocumentRecord(e.db, other, upload("theirs.md"));
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push(await createDocumentRecord(e.db, owner, upload(`doc-${i}.md`, i % 2 ? "odd" : null)));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof listDocuments>> = await listDocuments(e.db, owner, { limit: 3, cursor });
      seen.push(...page.data.map((d) => d.id));
      expect(page.pagination.has_more).toBe(page.pagination.next_cursor !== null);
      cursor = page.pagination.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    const rows = await Promise.all(ids.map((id) => loadDocument(e.db, id)));
    const newestFirst = rows
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id))
      .map((r) => r.id);
    expect(seen).toEqual(newestFirst);
    const odd = await listDocuments(e.db, owner, { limit: 10, spaceId: "odd" });
    expect(odd.data.map((d) => d.filename).sort()).toEqual(["doc-1.md", "doc-3.md", "doc-5.md"]);
    expect(odd.pagination).toEqual({ limit: 10, has_more: false, next_cursor: null });
  });

  test("a record ends ready with its text and counts, or failed with its reason; a failed one is reopened", async () => {
    const { owner } = await seedCourse(e.db, "states");
    const good = await createDocumentRecord(e.db, owner, { ...upload("good.md"), blobKey: "kept-key" });
    const bad = await createDocumentRecord(e.db, owner, upload("bad.pdf"));
    const markdown = "# Graphs\n\nNodes and edges.";
    await markDocumentReady(e.db, good, ready(markdown, 4));
    await markDocumentError(e.db, bad, "The file is encrypted", "bad-original");
    const shownGood = toDocumentResource(await loadOwnedDocument(e.db, owner, good));
    expect(shownGood).toMatchObject({
      status: "ready",
      chunk_count: 4,
      char_count: markdown.length,
      pages: 1,
      mime_type: "text/markdown",
    });
    expect(shownGood).not.toHaveProperty("error");
    expect((await loadDocument(e.db, good)).blob_key).toBe("kept-key");
    expect(await extractedMarkdown(e.db, good)).toBe(markdown);
    const shownBad = toDocumentResource(await loadOwnedDocument(e.db, owner, bad));
    expect(shownBad).toMatchObject({ status: "error", error: "The file is encrypted" });
    expect(shownBad).not.toHaveProperty("chunk_count");
    expect((await loadDocument(e.db, bad)).blob_key).toBe("bad-original");
    expect(await recordSummaries(e.db, [bad, good])).toEqual([
      { id: bad, filename: "bad.pdf", status: "error" },
      { id: good, filename: "good.md", status: "ready" },
    ]);

    await reopenFailedDocuments(e.db, [good, bad]);
    expect((await loadDocument(e.db, bad)).status).toBe("processing");
    expect((await loadDocument(e.db, bad)).error).toBeNull();
    expect((await loadDocument(e.db, good)).status).toBe("ready");
  });

  test("what a record was billed reads as a number (PostgreSQL's bigint arrives as text)", async () => {
    const { owner } = await seedCourse(e.db, "billed");
    const id = await createDocumentRecord(e.db, owner, { ...upload("paid.pdf"), kind: "extract" });
    await e.db.run(sql`UPDATE documents SET billed_micros = ${2_000} WHERE id = ${id}`);
    expect((await loadDocument(e.db, id)).billed_micros).toBe(2_000);
  });

  test("a delete takes the chunks, the course links and the stored original; another learner cannot delete", async () => {
    const { owner, courseId } = await seedCourse(e.db, "deleter");
    const other = (await seedCourse(e.db, "intruder")).owner;
    const blob = await putBlob({ blobDir: dataDir }, new TextEncoder().encode("original"), { ext: "md" });
    const id = await createDocumentRecord(e.db, owner, { ...upload("doomed.md"), blobKey: blob.key });
    const kept = await createDocumentRecord(e.db, owner, upload("kept.md"));
    for (const doc of [id, kept]) {
      await addChunk(e.db, owner, doc, 0);
      await addChunk(e.db, owner, doc, 1);
      await e.db.run(sql`INSERT INTO course_documents (course_id, document_id) VALUES (${courseId}, ${doc})`);
    }
    const svc = { sql: e.db, cfg: { blobDir: dataDir } };

    await expect(deleteDocument(svc, other, id)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
    expect(await countOf(e.db, "retrieval_chunks", id)).toBe(2);

    await deleteDocument(svc, owner, id);
    await expect(loadDocument(e.db, id)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
    expect(await countOf(e.db, "retrieval_chunks", id)).toBe(0);
    expect(await countOf(e.db, "course_documents", id)).toBe(0);
    expect(existsSync(blobPath(dataDir, blob.key))).toBe(false);
    expect(await countOf(e.db, "retrieval_chunks", kept)).toBe(2);
    expect(await countOf(e.db, "course_documents", kept)).toBe(1);
    await expect(deleteDocument(svc, owner, id)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
  });

  test("two deletes of a document at once: one deletes it, the other answers 404", async () => {
    const { owner } = await seedCourse(e.db, "racers");
    const id = await createDocumentRecord(e.db, owner, upload("raced.md"));
    // On PostgreSQL the deletes run on two connections; the first holds its transaction open a
    // second, so the other reads the record before that delete commits (a read-then-delete passes twice).
    if (e.db.dialect === "postgres") await slowDeletes(e.db, "raced.md");
    const svc = { sql: e.db, cfg: { blobDir: dataDir } };
    const outcomes = await Promise.allSettled([deleteDocument(svc, owner, id), deleteDocument(svc, owner, id)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({ reason: { code: "DOCUMENT_NOT_FOUND" } });
  }, 30_000);
});

/** PostgreSQL: deleting the record named `filename` waits a second before the row goes. */
async function slowDeletes(db: Sql, filename: string): Promise<void> {
  await db.run(sql`CREATE FUNCTION slow_documents_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_sleep(1); RETURN OLD; END $$`);
  await db.run(sql`CREATE TRIGGER slow_documents_delete BEFORE DELETE ON documents
    FOR EACH ROW WHEN (OLD.filename = ${raw(`'${filename}'`)}) EXECUTE FUNCTION slow_documents_delete()`);
}
