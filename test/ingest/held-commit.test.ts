/**
 * The files of a shared turn that are indexed have their chunks committed together (#28): each is
 * answered `held`, and only the commit settles it. An extraction process killed while it holds
 * such a commit loses those chunks, so nothing it answered may count as done: the files go back
 * to the queue and are indexed again in a fresh process. Every file the pool resolves has all its
 * chunks stored.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { openDb } from "../../src/db/index.ts";
import { ExtractionPool } from "../../src/ingest/pool.ts";
import { fileLimits } from "../../src/ingest/run-extraction.ts";
import { cleanup, tempDir } from "../helpers/server.ts";
import { scratch } from "./support.ts";

// Extraction processes start slowly on a loaded machine.
setDefaultTimeout(300_000);

const tmp = scratch();
const dataDir = tempDir("cf-held-");
afterAll(() => {
  tmp.remove();
  cleanup(dataDir);
});

const FILES = 24;
/** The turn after the first file (which runs alone) opens with file 1, then this long one. */
const LONG = 2;

/** Child processes of this test process (the pool's extraction processes). */
function children(): number[] {
  return readdirSync(`/proc/${process.pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${process.pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number),
  );
}

/** Whether another connection holds the database's write lock now. */
function lockHeld(db: Database): boolean {
  try {
    db.run("BEGIN IMMEDIATE");
    db.run("ROLLBACK");
    return false;
  } catch {
    return true;
  }
}

test("an extraction process killed while it holds a turn's commit settles none of those files; they are indexed again, and only the running one fails", async () => {
  const cfg = loadConfig({ ...process.env, DATA_DIR: dataDir, EMBEDDER: "builtin" });
  const { sqlite } = await openDb(dataDir);
  sqlite.run("INSERT INTO tenants (id, name, created_at) VALUES ('t', 't', '2026-01-01')");
  const { embedder, embeddingModel, modelsDir, ollamaHost, llmTimeoutMs, llmKeepAlive } = cfg;
  const embedderSettings = { embedder, embeddingModel, modelsDir, ollamaHost, llmTimeoutMs, llmKeepAlive };
  const jobs = [];
  for (let i = 0; i < FILES; i++) {
    const id = `doc-${i}`;
    sqlite.run(
      "INSERT INTO documents (id, tenant_id, filename, source_type, status, kind, created_at) VALUES (?, 't', ?, 'file', 'processing', 'index', '2026-01-01')",
      [id, `note-${i}.txt`],
    );
    // The turn's second file is long (yet small enough to share the turn): the first is answered
    // and held while it runs, so the kill below lands on a held commit whatever the machine's speed.
    const body =
      i === LONG
        ? Array.from({ length: 3000 }, (_, k) => `Paragraph ${k} on tides measures the sea at a harbour.`).join("\n\n")
        : `A short abstract about tides, number ${i}. It says what was measured and what was found.`;
    const path = await tmp.write(`note-${i}.txt`, `Note ${i}\n\n${body}\n`);
    jobs.push({
      path,
      filename: `note-${i}.txt`,
      kind: "txt" as const,
      limits: fileLimits(cfg),
      index: {
        dataDir,
        databaseUrl: null,
        embedder: embedderSettings,
        tenantId: "t",
        userId: null,
        documentId: id,
        spaceId: null,
      },
    });
  }
  sqlite.close();
  const probe = new Database(join(dataDir, "courseforge.db"));
  probe.run("PRAGMA busy_timeout = 0");
  const pool = new ExtractionPool(1);
  try {
    const results = jobs.map((job) => pool.run(job, 120_000));
    // The first file takes a turn alone; the others share the next. Once that turn holds its
    // commit (file 1 writing, then the long file running), its process is killed.
    await Promise.race([results[0], Bun.sleep(120_000)]);
    while (!lockHeld(probe)) await Bun.sleep(5);
    await Bun.sleep(30);
    const [pid] = children();
    expect(pid).toBeDefined();
    process.kill(pid!, "SIGKILL");
    const done = await Promise.allSettled(results);
    const stored = (i: number) =>
      probe
        .query<{ n: number }, [string]>("SELECT count(*) AS n FROM retrieval_chunks WHERE document_id = ?")
        .get(`doc-${i}`)!.n;
    // The file running when the process died fails, alone, with nothing of it stored; every other
    // is settled only with its chunks committed, the held ones indexed again in the next process.
    const failed = done.flatMap((d, i) => (d.status === "rejected" ? [i] : []));
    expect(failed).toHaveLength(1);
    expect((done[failed[0]!] as PromiseRejectedResult).reason.code).toBe("EXTRACTION_FAILED");
    expect(stored(failed[0]!)).toBe(0);
    for (const [i, d] of done.entries()) {
      if (d.status === "rejected") continue;
      expect(d.value.chunkCount).toBeGreaterThan(0);
      expect(stored(i)).toBe(d.value.chunkCount!);
    }
    expect(pool.stats().started).toBe(2);
  } finally {
    pool.close();
    probe.close();
  }
});
