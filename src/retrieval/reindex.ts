/**
 * Re-embedding after a change of embedder: every chunk whose vector was made by another embedder
 * (or, with `all`, every chunk) gets a new vector from the active one, batch by batch. Each batch
 * commits on its own, so an interrupted run keeps its progress and a second run finishes the rest.
 */
import { type Query, type Sql, sql } from "../db/sql.ts";
import { embeddingInput, type IndexDeps } from "./index-chunks.ts";
import { type ChunkKeys, removeVector, type VectorStore, vectorStoreOf } from "./vector-store.ts";

export interface ReindexProgress {
  done: number;
  total: number;
}

export interface ReindexOptions {
  /** Re-embed chunks already made by the active embedder too (its model files were replaced). */
  all?: boolean;
  batchSize?: number;
  onProgress?: (p: ReindexProgress) => void;
}

/** A chunk to re-embed: its keys (as its vector is stored) and what its vector is made from. */
interface StaleChunk extends ChunkKeys {
  text: string;
  context: string;
  embedder: string;
  dimension: number;
}

function staleCondition(deps: IndexDeps, all: boolean): Query {
  if (all) return sql`1 = 1`;
  const dim = deps.embedder.dimension;
  return dim > 0 ? sql`(embedder <> ${deps.embedder.id} OR dimension <> ${dim})` : sql`embedder <> ${deps.embedder.id}`;
}

const countWhere = async (db: Sql, where: Query) =>
  (await db.get<{ n: number }>(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM retrieval_chunks WHERE ${where}`))!.n;

/** Chunks whose vectors the active embedder did not make. */
export function staleChunkCount(deps: IndexDeps): Promise<number> {
  return countWhere(deps.sql, staleCondition(deps, false));
}

async function moveVectors(
  db: Sql,
  store: VectorStore,
  active: string,
  table: string | null,
  dimension: number,
  batch: StaleChunk[],
  vectors: Float32Array[],
): Promise<void> {
  // Found before the transaction, as the new space's table was made: no DDL inside it.
  const old = new Map<string, string | null>();
  for (const c of batch) {
    const key = `${c.embedder}@${c.dimension}`;
    if (!old.has(key)) old.set(key, await store.find({ embedder: c.embedder, dimension: c.dimension }));
  }
  await db.transaction(async (tx) => {
    const moved = [];
    for (const [i, c] of batch.entries()) {
      const changed = await tx.run(
        sql`UPDATE retrieval_chunks SET embedder = ${active}, dimension = ${dimension} WHERE seq = ${c.seq}`,
      );
      // Deleted since the batch was read (its document went): nothing to move.
      if (changed === 0) continue;
      const from = old.get(`${c.embedder}@${c.dimension}`);
      if (from) await removeVector(tx, from, c.seq);
      moved.push({ ...c, vector: vectors[i]! });
    }
    if (table) await store.write(tx, table, moved);
  });
}

export async function reindexAll(deps: IndexDeps, opts: ReindexOptions = {}): Promise<ReindexProgress> {
  const batchSize = opts.batchSize ?? 64;
  const where = staleCondition(deps, opts.all ?? false);
  const total = await countWhere(deps.sql, where);
  const store = await vectorStoreOf(deps.sql);
  let done = 0;
  let last = 0;
  opts.onProgress?.({ done, total });
  for (;;) {
    const batch = await deps.sql.all<StaleChunk>(
      sql`SELECT seq, tenant_id, user_id, document_id, course_id, space_id, text, context, embedder, dimension
            FROM retrieval_chunks WHERE ${where} AND seq > ${last} ORDER BY seq LIMIT ${batchSize}`,
    );
    if (batch.length === 0) break;
    const vectors = await deps.embedder.embed(batch.map((c) => embeddingInput(c.context, c.text)));
    const dimension = vectors[0]!.length;
    const table = await store.ensure({ embedder: deps.embedder.id, dimension });
    await moveVectors(deps.sql, store, deps.embedder.id, table, dimension, batch, vectors);
    last = batch[batch.length - 1]!.seq;
    done += batch.length;
    opts.onProgress?.({ done, total });
  }
  return { done, total };
}
