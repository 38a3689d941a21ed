/**
 * Leases on uploads' ingestion (#34), on both engines' statements: a node renews the lease of the
 * uploads it is ingesting, and another node ends the uploads whose lease ran out (their node died
 * and may never return) as errors that say to send the source again, never one still leased, its
 * own, one already ready, or a course's source (the course's resumed job ingests those).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "../../src/db/sql.ts";
import { ABANDONED_UPLOAD, failAbandonedUploads, renewIngestLeases } from "../../src/documents/ingest-leases.ts";
import { createDocumentRecord, loadDocument, markDocumentReady } from "../../src/documents/records.ts";
import { ENGINES, type Engine } from "../helpers/engines.ts";
import { seedCourse } from "../helpers/seed-course.ts";

const at = (seconds: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, seconds)).toISOString();

describe.each(ENGINES)("uploads' ingestion leases on %s", (_name, open) => {
  let e: Engine;
  beforeAll(async () => {
    e = await open();
  }, 120_000);
  afterAll(() => e?.close());

  const upload = (filename: string, ingestNode: string, ingestLeaseUntil: string) => ({
    filename,
    sourceType: "file" as const,
    ingestNode,
    ingestLeaseUntil,
  });

  test("a dead node's uploads end after their lease; a live node's, its own, ready ones and a course's do not", async () => {
    const { owner, courseId } = await seedCourse(e.db, "leases");
    const dead = await createDocumentRecord(e.db, owner, upload("dead.md", "node-dead", at(30)));
    const live = await createDocumentRecord(e.db, owner, upload("live.md", "node-live", at(30)));
    const mine = await createDocumentRecord(e.db, owner, upload("mine.md", "node-me", at(0)));
    const done = await createDocumentRecord(e.db, owner, upload("done.md", "node-dead", at(0)));
    await markDocumentReady(e.db, done, {
      blobKey: null,
      mimeType: "text/markdown",
      pages: 1,
      markdown: "# Done",
      title: "Done",
      chunkCount: 0,
    });
    const source = await createDocumentRecord(e.db, owner, upload("source.md", "node-dead", at(0)));
    await e.db.run(sql`INSERT INTO course_documents (course_id, document_id) VALUES (${courseId}, ${source})`);

    // Before the lease runs out nothing is taken, however the clocks stand.
    expect(await failAbandonedUploads(e.db, "node-me", at(20))).toBe(0);
    // The live node renews its uploads' lease; the dead one no longer does.
    expect(await renewIngestLeases(e.db, "node-live", at(90))).toBe(1);
    expect(await failAbandonedUploads(e.db, "node-me", at(60))).toBe(1);

    const status = async (id: string) => {
      const row = await loadDocument(e.db, id);
      return [row.status, row.error];
    };
    expect(await status(dead)).toEqual(["error", ABANDONED_UPLOAD]);
    expect(await status(live)).toEqual(["processing", null]);
    expect(await status(mine)).toEqual(["processing", null]);
    expect(await status(done)).toEqual(["ready", null]);
    expect(await status(source)).toEqual(["processing", null]);
    // Ended once: the next pass finds nothing more.
    expect(await failAbandonedUploads(e.db, "node-me", at(60))).toBe(0);
  });
});
