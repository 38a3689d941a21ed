/**
 * Indexing inside an extraction process: the document is chunked, embedded and written to the
 * database here, so that a 50 MB text never passes through the server's memory or event loop. The
 * process opens its own connection (WAL lets it write beside the server; each batch is a short
 * transaction) and makes the server's embedder from the same settings.
 */
import type { Database } from "bun:sqlite";
import { openDb } from "../db/index.ts";
import type { ExtractResult, IndexJob } from "../ingest/types.ts";
import { chunkDocument } from "./chunk.ts";
import { createEmbedder } from "./embedders/create.ts";
import type { Embedder } from "./embedders/types.ts";
import { indexChunks } from "./index-chunks.ts";

const server = process.ppid;
let db: { dataDir: string; sqlite: Promise<Database> } | null = null;
let embedder: { key: string; embedder: Embedder } | null = null;

function connection(dataDir: string): Promise<Database> {
  if (db?.dataDir !== dataDir) db = { dataDir, sqlite: openDb(dataDir, { migrate: false }).then((o) => o.sqlite) };
  return db.sqlite;
}

function embedderFor(job: IndexJob): Embedder {
  const key = JSON.stringify(job.embedder);
  if (embedder?.key !== key) embedder = { key, embedder: createEmbedder(job.embedder) };
  return embedder.embedder;
}

/** Indexes the extracted document; returns its chunk count. */
export async function indexInWorker(job: IndexJob, result: ExtractResult): Promise<number> {
  // The pool gives indexing its own time budget.
  process.send?.({ phase: "indexing" });
  const owner = {
    tenantId: job.tenantId,
    userId: job.userId,
    documentId: job.documentId,
    courseId: null,
    chapterId: null,
    spaceId: job.spaceId,
  };
  const deps = { sqlite: await connection(job.dataDir), embedder: embedderFor(job) };
  // A server that is gone has marked the document failed on restart: write nothing more for it.
  const serverAlive = () => process.ppid === server || process.exit(0);
  return indexChunks(deps, owner, result.title, chunkDocument(result), serverAlive);
}
