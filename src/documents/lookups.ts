/**
 * Small reads and one status reset that other folders need of document records (the courses
 * owner's planning and resume), on either engine's seam.
 */
import { inJsonArray, type Query, type Sql, sql } from "../db/sql.ts";
import type { RepeatSummary } from "./repeated-sections.ts";

/** A document's own title (from its metadata or first heading), or null. */
export async function documentTitle(db: Sql, id: string): Promise<string | null> {
  const row = await db.get<{ title: string | null }>(sql`SELECT title FROM documents WHERE id = ${id}`);
  return row?.title?.trim() || null;
}

/** What a document repeats of itself, as its details say it; null when never checked. */
export async function documentRepeats(db: Sql, id: string): Promise<RepeatSummary | null> {
  const row = await db.get<{ repeats: string | null }>(sql`SELECT repeats FROM documents WHERE id = ${id}`);
  return row?.repeats ? (JSON.parse(row.repeats) as RepeatSummary) : null;
}

/** The chunks a document repeats of itself (documents/repeated-sections.ts); none when never checked. */
export async function repeatedChunkIds(db: Sql, id: string): Promise<Set<string>> {
  const row = await db.get<{ repeated_chunks: string | null }>(
    sql`SELECT repeated_chunks FROM documents WHERE id = ${id}`,
  );
  return new Set(row?.repeated_chunks ? (JSON.parse(row.repeated_chunks) as string[]) : []);
}

/** How many indexed documents of the learner are ready to search. */
export async function readyIndexCount(db: Sql, tenantId: string, userId: string): Promise<number> {
  const row = await db.get<{ n: number }>(
    sql`SELECT CAST(count(*) AS INTEGER) AS n FROM documents
         WHERE tenant_id = ${tenantId} AND user_id = ${userId} AND kind = 'index' AND status = 'ready'`,
  );
  return row!.n;
}

const reopenStatement = (ids: readonly string[]): Query =>
  sql`UPDATE documents SET status = 'processing', error = NULL WHERE status = 'error' AND ${inJsonArray("id", ids)}`;

/** Puts the failed ones of `ids` back to processing, for another try. */
export async function reopenFailedDocuments(db: Sql, ids: readonly string[]): Promise<void> {
  await db.run(reopenStatement(ids));
}
