/**
 * Where an engine keeps chunk vectors, for the index's writes (chunk-writes.ts, reindex.ts): one
 * table per vector space either way, vec0 on SQLite (vector-tables.ts: binary code, float vector,
 * owner keys) and pgvector on PostgreSQL (postgres-vector-tables.ts: the vector alone). A
 * PostgreSQL server without pgvector keeps none, and search ranks by full text alone.
 */
import type { Database } from "bun:sqlite";
import { raw, type Sql, SqliteSql, sql, valuesList } from "../db/sql.ts";
import { binaryCode } from "./binary-code.ts";
import {
  ensurePostgresVectorTable,
  findPostgresVectorTable,
  hasPgvector,
  vectorLiteral,
} from "./postgres-vector-tables.ts";
import { ensureVectorTable, findVectorTable, type VectorSpace, vectorKeys } from "./vector-tables.ts";

/** A chunk's row as the vector writers read it: its seq and the owner columns vec0 filters by. */
export interface ChunkKeys {
  seq: number;
  tenant_id: string;
  user_id: string | null;
  document_id: string | null;
  course_id: string | null;
  space_id: string | null;
}

/** A chunk's vector with its keys. */
export type StoredVector = ChunkKeys & { vector: Float32Array };

export interface VectorStore {
  /** The table of a space, or null when nothing was ever embedded in it (or the engine keeps no vectors). */
  find(space: VectorSpace): Promise<string | null>;
  /**
   * The table of a space, made if needed; null when the engine keeps no vectors. Called before the
   * transaction that writes to it, so a rolled-back write leaves no name without its table.
   */
  ensure(space: VectorSpace): Promise<string | null>;
  /** Writes the vectors of chunks inserted (or re-embedded) in `tx`, in one statement: at most a few hundred. */
  write(tx: Sql, table: string, rows: readonly StoredVector[]): Promise<void>;
}

const vectorBytes = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

function vec0Store(sqlite: Database): VectorStore {
  return {
    find: async (space) => findVectorTable(sqlite, space),
    ensure: async (space) => ensureVectorTable(sqlite, space),
    async write(tx, table, rows) {
      if (rows.length === 0) return;
      const values = rows.map((r) => {
        const [user, document, course, space] = vectorKeys(r);
        return sql`(${r.seq}, ${r.tenant_id}, ${user}, ${document}, ${course}, ${space}, vec_bit(${binaryCode(r.vector)}), ${vectorBytes(r.vector)})`;
      });
      await tx.run(
        sql`INSERT INTO ${raw(table)} (chunk_seq, tenant_id, user_key, document_key, course_key, space_key, code, embedding)
            VALUES ${valuesList(values)}`,
      );
    },
  };
}

function pgvectorStore(db: Sql): VectorStore {
  return {
    find: (space) => findPostgresVectorTable(db, space),
    ensure: (space) => ensurePostgresVectorTable(db, space),
    async write(tx, table, rows) {
      if (rows.length === 0) return;
      const values = rows.map((r) => sql`(${r.seq}, ${vectorLiteral(r.vector)}::vector)`);
      await tx.run(
        sql`INSERT INTO ${raw(table)} (chunk_seq, embedding) VALUES ${valuesList(values)}
            ON CONFLICT (chunk_seq) DO UPDATE SET embedding = excluded.embedding`,
      );
    },
  };
}

const noVectors: VectorStore = {
  find: async () => null,
  ensure: async () => null,
  async write() {},
};

/** The vector store of the engine behind `db`. */
export async function vectorStoreOf(db: Sql): Promise<VectorStore> {
  if (db instanceof SqliteSql) return vec0Store(db.db);
  return (await hasPgvector(db)) ? pgvectorStore(db) : noVectors;
}

/** Removes a chunk's vector from a space's table (a re-embedded chunk leaves its old space). */
export async function removeVector(tx: Sql, table: string, seq: number): Promise<void> {
  await tx.run(sql`DELETE FROM ${raw(table)} WHERE chunk_seq = ${seq}`);
}
