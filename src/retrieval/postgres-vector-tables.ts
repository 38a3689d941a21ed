/**
 * PostgreSQL's vector tables, pgvector's counterpart of vector-tables.ts: one table per vector space
 * (embedder id + dimension), created on first use and listed in retrieval_vector_tables as SQLite's
 * are, holding each chunk's `vector(n)` under an HNSW cosine index. The chunk's own row carries
 * owner and scope, so a search joins it rather than copying them here; a chunk's vector leaves
 * with it by the foreign key. Without the `vector` extension none of this exists and search ranks
 * by full text alone.
 */

import { raw, type Sql, sql } from "../db/sql.ts";
import type { Logger } from "../log.ts";
import { nowIso } from "../util.ts";
import type { VectorSpace } from "./vector-tables.ts";

/** pgvector's HNSW indexes vectors of at most this many dimensions; longer ones are scanned exactly. */
const HNSW_MAX_DIMENSION = 2000;

/** Whether the database has pgvector (its migration installs it when the server offers it). */
export async function hasPgvector(db: Sql): Promise<boolean> {
  return (await db.get(sql`SELECT 1 AS yes FROM pg_extension WHERE extname = 'vector'`)) !== null;
}

/** Checked once at start: without pgvector the server still starts, and says once that it ranks by full text. */
export async function announceVectorSupport(db: Sql, log: Logger): Promise<boolean> {
  const present = await hasPgvector(db);
  if (!present) {
    log.warn("the PostgreSQL server has no pgvector extension: search ranks by full text alone", {
      extension: "vector",
    });
  }
  return present;
}

/** A vector's text form, which PostgreSQL casts to `vector`. */
export const vectorLiteral = (v: Float32Array): string => `[${Array.from(v).join(",")}]`;

/** The vector table of a space, or null when nothing was ever embedded in it. */
export async function findPostgresVectorTable(db: Sql, space: VectorSpace): Promise<string | null> {
  const row = await db.get<{ table_name: string }>(
    sql`SELECT table_name FROM retrieval_vector_tables WHERE embedder = ${space.embedder} AND dimension = ${space.dimension}`,
  );
  return row?.table_name ?? null;
}

/**
 * The vector table of a space, created with its index if needed, under a lock so nodes embedding
 * the same new space at once create it once.
 */
export async function ensurePostgresVectorTable(db: Sql, space: VectorSpace): Promise<string> {
  const found = await findPostgresVectorTable(db, space);
  if (found) return found;
  if (!Number.isInteger(space.dimension) || space.dimension < 1 || space.dimension > 16000) {
    throw new Error(`embedder ${space.embedder} produced vectors of unusable dimension ${space.dimension}`);
  }
  return db.transaction(async (tx) => {
    await tx.lock("retrieval.vector-tables");
    const raced = await findPostgresVectorTable(tx, space);
    if (raced) return raced;
    const next = await tx.get<{ n: number }>(
      sql`SELECT CAST(count(*) + 1 AS INTEGER) AS n FROM retrieval_vector_tables`,
    );
    // Generated, never user-supplied: the name and dimension are safe to splice into SQL.
    const name = `retrieval_vec_${next!.n}`;
    await tx.run(
      raw(`CREATE TABLE ${name} (
        chunk_seq integer PRIMARY KEY REFERENCES retrieval_chunks(seq) ON DELETE CASCADE,
        embedding vector(${space.dimension}) NOT NULL
      )`),
    );
    if (space.dimension <= HNSW_MAX_DIMENSION) {
      await tx.run(raw(`CREATE INDEX ${name}_hnsw ON ${name} USING hnsw (embedding vector_cosine_ops)`));
    }
    await tx.run(
      sql`INSERT INTO retrieval_vector_tables (embedder, dimension, table_name, created_at)
          VALUES (${space.embedder}, ${space.dimension}, ${name}, ${nowIso()})`,
    );
    return name;
  });
}
