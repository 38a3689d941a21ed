/**
 * One vec0 table per vector space (embedder id + dimension), created on first use and listed in
 * retrieval_vector_tables. Each row holds the chunk's float vector (an auxiliary column, read for
 * the exact cosine) and its binary code (the indexed column, scanned by Hamming distance). The tenant is the partition key, so a KNN search only ever scans the
 * caller's tenant; owner and scope columns are vec0 metadata, filtered during the search (before
 * ranking), not after it.
 */
import type { Database } from "bun:sqlite";
import { getOrCreate, nowIso } from "../util.ts";
import { CODE_BITS } from "./binary-code.ts";

export interface VectorSpace {
  embedder: string;
  dimension: number;
}

// Smaller than vec0's default of 1024 vectors: each tenant's partition allocates whole chunks.
const VEC_CHUNK_SIZE = 256;

const cache = new WeakMap<Database, Map<string, string>>();

const spaceKey = (s: VectorSpace) => `${s.embedder}@${s.dimension}`;
const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

function cached(sqlite: Database): Map<string, string> {
  const m = getOrCreate(cache, sqlite, () => new Map());
  return m;
}

/** The vec0 table of a vector space, or null when nothing was ever embedded in it. */
export function findVectorTable(sqlite: Database, space: VectorSpace): string | null {
  const names = cached(sqlite);
  const hit = names.get(spaceKey(space));
  if (hit) return hit;
  const row = sqlite
    .query<{ table_name: string }, [string, number]>(
      "SELECT table_name FROM retrieval_vector_tables WHERE embedder = ? AND dimension = ?",
    )
    .get(space.embedder, space.dimension);
  if (row) names.set(spaceKey(space), row.table_name);
  return row?.table_name ?? null;
}

/**
 * The vec0 table of a vector space, created (with its clean-up trigger) in a transaction of its
 * own if needed. Call it before, not inside, the transaction that writes vectors: a rolled-back
 * outer transaction would otherwise leave a cached name without its table.
 */
export function ensureVectorTable(sqlite: Database, space: VectorSpace): string {
  return findVectorTable(sqlite, space) ?? sqlite.transaction(() => createVectorTable(sqlite, space))();
}

function createVectorTable(sqlite: Database, space: VectorSpace): string {
  const raced = findVectorTable(sqlite, space);
  if (raced) return raced;
  if (!Number.isInteger(space.dimension) || space.dimension < 1 || space.dimension > 8192) {
    throw new Error(`embedder ${space.embedder} produced vectors of unusable dimension ${space.dimension}`);
  }
  const next = sqlite.query<{ n: number }, []>("SELECT count(*) + 1 AS n FROM retrieval_vector_tables").get()!.n;
  // Generated, never user-supplied: the name is safe to splice into SQL.
  const name = `retrieval_vec_${next}`;
  sqlite.run(`CREATE VIRTUAL TABLE ${name} USING vec0(
    chunk_seq integer primary key,
    tenant_id text partition key,
    user_key integer,
    document_key integer,
    course_key integer,
    space_key integer,
    code bit[${CODE_BITS}],
    +embedding blob,
    chunk_size=${VEC_CHUNK_SIZE}
  )`);
  // Chunks leave with their document, chapter, course or tenant (foreign-key cascades); their vectors follow.
  sqlite.run(`CREATE TRIGGER ${name}_delete AFTER DELETE ON retrieval_chunks
    WHEN old.embedder = ${quote(space.embedder)} AND old.dimension = ${space.dimension}
    BEGIN DELETE FROM ${name} WHERE chunk_seq = old.seq; END`);
  sqlite.run("INSERT INTO retrieval_vector_tables (embedder, dimension, table_name, created_at) VALUES (?, ?, ?, ?)", [
    space.embedder,
    space.dimension,
    name,
    nowIso(),
  ]);
  return name;
}

/**
 * A 52-bit key of an id (0 for none): exact in a JS number and in JSON. Two ids may share a key
 * with odds of about 1 in 2^52, so search re-checks its vector candidates against the chunk rows.
 */
export function keyOf(id: string | null | undefined): number {
  if (!id) return 0;
  return parseInt(new Bun.CryptoHasher("sha256").update(id).digest("hex").slice(0, 13), 16) || 1;
}

/** The metadata columns of a chunk's vector row, in table order after chunk_seq and tenant_id. */
export function vectorKeys(c: {
  user_id: string | null;
  document_id: string | null;
  course_id: string | null;
  space_id: string | null;
}) {
  return [keyOf(c.user_id), keyOf(c.document_id), keyOf(c.course_id), keyOf(c.space_id)] as const;
}
