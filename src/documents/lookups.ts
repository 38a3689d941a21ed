/**
 * Small reads and one status reset that other folders need of document records. The courses
 * owner's planning and resume call them synchronously, inside its bun:sqlite code, so they run the
 * seam's statements on that connection; the reset is async on the seam too, for callers that are.
 */
import type { Database } from "bun:sqlite";
import { inJsonArray, type Query, type Sql, sql, sqliteSql } from "../db/sql.ts";
import type { RepeatSummary } from "./repeated-sections.ts";

/** A document's own title (from its metadata or first heading), or null. */
export function documentTitle(sqlite: Database, id: string): string | null {
  const row = sqliteSql(sqlite).getSync<{ title: string | null }>(sql`SELECT title FROM documents WHERE id = ${id}`);
  return row?.title?.trim() || null;
}

/** What a document repeats of itself, as its details say it; null when never checked. */
export function documentRepeats(sqlite: Database, id: string): RepeatSummary | null {
  const row = sqliteSql(sqlite).getSync<{ repeats: string | null }>(
    sql`SELECT repeats FROM documents WHERE id = ${id}`,
  );
  return row?.repeats ? (JSON.parse(row.repeats) as RepeatSummary) : null;
}

/** The chunks a document repeats of itself (documents/repeated-sections.ts); none when never checked. */
export function repeatedChunkIds(sqlite: Database, id: string): Set<string> {
  const row = sqliteSql(sqlite).getSync<{ repeated_chunks: string | null }>(
    sql`SELECT repeated_chunks FROM documents WHERE id = ${id}`,
  );
  return new Set(row?.repeated_chunks ? (JSON.parse(row.repeated_chunks) as string[]) : []);
}

/** How many indexed documents of the learner are ready to search. */
export function readyIndexCount(sqlite: Database, tenantId: string, userId: string): number {
  return sqliteSql(sqlite).getSync<{ n: number }>(
    sql`SELECT CAST(count(*) AS INTEGER) AS n FROM documents
         WHERE tenant_id = ${tenantId} AND user_id = ${userId} AND kind = 'index' AND status = 'ready'`,
  )!.n;
}

const reopenStatement = (ids: readonly string[]): Query =>
  sql`UPDATE documents SET status = 'processing', error = NULL WHERE status = 'error' AND ${inJsonArray("id", ids)}`;

/** Puts the failed ones of `ids` back to processing, for another try. */
export async function reopenFailedDocuments(db: Sql, ids: readonly string[]): Promise<void> {
  await db.run(reopenStatement(ids));
}
