/**
 * Re-embedding after a change of embedder: every chunk whose vector was made by another embedder
 * (or, with `all`, every chunk) gets a new vector from the active one, batch by batch. Each batch
 * commits on its own, so an interrupted run keeps its progress and a second run finishes the rest.
 */
import type { Database } from "bun:sqlite";
import { embeddingInput, type RetrievalDeps } from "./index-chunks.ts";
import { ensureVectorTable, findVectorTable, insertVectorSql, vectorKeys, vectorRow } from "./vector-tables.ts";

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

interface StaleChunk {
  seq: number;
  tenant_id: string;
  user_id: string | null;
  document_id: string | null;
  course_id: string | null;
  space_id: string | null;
  text: string;
  context: string;
  embedder: string;
  dimension: number;
}

function staleCondition(deps: RetrievalDeps, all: boolean): { where: string; params: (string | number)[] } {
  if (all) return { where: "1 = 1", params: [] };
  const dim = deps.embedder.dimension;
  return dim > 0
    ? { where: "(embedder != ? OR dimension != ?)", params: [deps.embedder.id, dim] }
    : { where: "embedder != ?", params: [deps.embedder.id] };
}

/** Chunks whose vectors the active embedder did not make. */
export function staleChunkCount(deps: RetrievalDeps): number {
  const { where, params } = staleCondition(deps, false);
  return deps.sqlite
    .query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM retrieval_chunks WHERE ${where}`)
    .get(...params)!.n;
}

function moveVectors(
  sqlite: Database,
  active: string,
  table: string,
  dimension: number,
  batch: StaleChunk[],
  vectors: Float32Array[],
): void {
  const insert = sqlite.prepare(insertVectorSql(table));
  const update = sqlite.prepare("UPDATE retrieval_chunks SET embedder = ?, dimension = ? WHERE seq = ?");
  sqlite.transaction(() => {
    batch.forEach((c, i) => {
      // Deleted since the batch was read (its document went): nothing to move.
      if (update.run(active, dimension, c.seq).changes === 0) return;
      const old = findVectorTable(sqlite, { embedder: c.embedder, dimension: c.dimension });
      if (old) sqlite.run(`DELETE FROM ${old} WHERE chunk_seq = ?`, [c.seq]);
      insert.run(...vectorRow(c.seq, c.tenant_id, vectorKeys(c), vectors[i]!));
    });
  })();
}

export async function reindexAll(deps: RetrievalDeps, opts: ReindexOptions = {}): Promise<ReindexProgress> {
  const batchSize = opts.batchSize ?? 64;
  const { where, params } = staleCondition(deps, opts.all ?? false);
  const total = deps.sqlite
    .query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM retrieval_chunks WHERE ${where}`)
    .get(...params)!.n;
  const page = deps.sqlite.query<StaleChunk, (string | number)[]>(
    `SELECT seq, tenant_id, user_id, document_id, course_id, space_id, text, context, embedder, dimension
       FROM retrieval_chunks WHERE ${where} AND seq > ? ORDER BY seq LIMIT ?`,
  );
  let done = 0;
  let last = 0;
  opts.onProgress?.({ done, total });
  for (;;) {
    const batch = page.all(...params, last, batchSize);
    if (batch.length === 0) break;
    const vectors = await deps.embedder.embed(batch.map((c) => embeddingInput(c.context, c.text)));
    const dimension = vectors[0]!.length;
    const table = ensureVectorTable(deps.sqlite, { embedder: deps.embedder.id, dimension });
    moveVectors(deps.sqlite, deps.embedder.id, table, dimension, batch, vectors);
    last = batch[batch.length - 1]!.seq;
    done += batch.length;
    opts.onProgress?.({ done, total });
  }
  return { done, total };
}
