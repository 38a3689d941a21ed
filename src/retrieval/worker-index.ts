/**
 * Indexing off the server's thread. An extraction process indexes the document it extracted, so
 * that a 50 MB text never passes through the server's memory or event loop; the extractive engine's
 * thread indexes each written chapter of a course (a long chapter is hundreds of chunks: seconds of
 * the built-in embedder's work that held every request while a book became a course). Either opens
 * its own connection (WAL lets it write beside the server; each transaction is short), or a pool of
 * its own on PostgreSQL, and makes the server's embedder from the same settings.
 */
import type { Database } from "bun:sqlite";
import { SQL } from "bun";
import { openConnection } from "../db/connection.ts";
import { postgresSql, type Sql, sqliteSql } from "../db/sql.ts";
import type { ExtractResult, IndexJob } from "../ingest/types.ts";
import { type Chunk, chunkDocument } from "./chunk.ts";
import { createEmbedder, type EmbedderConfig } from "./embedders/create.ts";
import type { Embedder } from "./embedders/types.ts";
import { type IndexChapterInput, indexChapter, indexChunks } from "./index-chunks.ts";

const server = process.ppid;
/** Connections by data directory (or database URL); a thread serving several servers' tests keeps the latest few. */
const KEPT = 4;
const connections = new Map<string, Promise<Database>>();
const pools = new Map<string, Sql>();
let embedder: { key: string; embedder: Embedder } | null = null;

function connection(dataDir: string): Promise<Database> {
  const held = connections.get(dataDir);
  if (held) return held;
  // Off the server's thread a write may wait for the lock as long as a loaded machine needs: with the
  // server's 5 s, a source failed with "database is locked" while the server or another process wrote.
  const opened = openConnection(dataDir, { busyTimeoutMs: 60_000 });
  connections.set(dataDir, opened);
  if (connections.size > KEPT) {
    const [oldest, conn] = connections.entries().next().value!;
    connections.delete(oldest);
    void conn.then((c) => c.close());
  }
  return opened;
}

/** PostgreSQL's pool for a URL, kept for the process's life (one per server it serves). */
function pool(url: string): Sql {
  let held = pools.get(url);
  if (!held) {
    held = postgresSql(new SQL({ url, max: 2 }));
    pools.set(url, held);
  }
  return held;
}

function embedderFor(cfg: EmbedderConfig): Embedder {
  const key = JSON.stringify(cfg);
  if (embedder?.key !== key) embedder = { key, embedder: createEmbedder(cfg) };
  return embedder.embedder;
}

/**
 * SQLite connections whose writes are held in one open transaction (holdWrites): a turn of small
 * files commits their chunks once. Each document's own write is a savepoint inside it, so one that
 * fails is undone alone. PostgreSQL commits each document's chunks in a transaction of its own:
 * its writers do not queue for one lock, and a commit there costs no more than the batch's would.
 */
let holding: Set<Database> | null = null;

/** The documents indexed from now on are written in one transaction per database, until `commitHeldWrites`. */
export function holdWrites(): void {
  holding ??= new Set();
}

/** Commits what was held and stops holding; a failed commit (a full disk) throws, having rolled back. */
export function commitHeldWrites(): void {
  const held = holding;
  holding = null;
  let failure: unknown = null;
  for (const sqlite of held ?? []) {
    try {
      sqlite.run("COMMIT");
    } catch (err) {
      failure ??= err;
      if (sqlite.inTransaction) sqlite.run("ROLLBACK");
    }
  }
  if (failure) throw failure;
}

/** Indexes the extracted document; returns its chunks as written, each with its id. */
export async function indexInWorker(job: IndexJob, result: ExtractResult): Promise<(Chunk & { id: string })[]> {
  // The pool gives indexing its own time budget; a small file of a shared turn, whose writes are
  // held, does both within one file's (a message each cost more than indexing an abstract).
  if (!holding) process.send?.({ phase: "indexing" });
  const owner = {
    tenantId: job.tenantId,
    userId: job.userId,
    documentId: job.documentId,
    courseId: null,
    chapterId: null,
    spaceId: job.spaceId,
  };
  const deps = { sql: await writer(job), embedder: embedderFor(job.embedder) };
  // A server that is gone has marked the document failed on restart: write nothing more for it.
  const serverAlive = () => process.ppid === server || process.exit(0);
  const chunks = chunkDocument(result);
  const ids = await indexChunks(deps, owner, result.title, chunks, serverAlive);
  return chunks.map((c, i) => ({ ...c, id: ids[i]! }));
}

/** The seam a document's chunks are written through; on SQLite, inside the held transaction while writes are held. */
async function writer(job: Pick<IndexJob, "dataDir" | "databaseUrl">): Promise<Sql> {
  if (job.databaseUrl) return pool(job.databaseUrl);
  const sqlite = await connection(job.dataDir);
  if (holding && !holding.has(sqlite)) {
    sqlite.run("BEGIN IMMEDIATE");
    holding.add(sqlite);
  }
  return sqliteSql(sqlite);
}

/** A written chapter to index in the engine's thread (index-job.ts makes it): plain data. */
export interface ChapterIndexJob {
  dataDir: string;
  databaseUrl: string | null;
  embedder: EmbedderConfig;
  chapter: IndexChapterInput;
}

/** Indexes a written chapter for course Q&A, replacing its previous chunks. */
export async function indexChapterInThread(job: ChapterIndexJob): Promise<void> {
  await indexChapter(
    {
      sql: job.databaseUrl ? pool(job.databaseUrl) : sqliteSql(await connection(job.dataDir)),
      embedder: embedderFor(job.embedder),
    },
    job.chapter,
  );
}
