/** Small reads and one status reset that other folders need of document records. */
import type { Database } from "bun:sqlite";

/** A document's own title (from its metadata or first heading), or null. */
export function documentTitle(sqlite: Database, id: string): string | null {
  return (
    sqlite
      .query<{ title: string | null }, [string]>("SELECT title FROM documents WHERE id = ?")
      .get(id)
      ?.title?.trim() || null
  );
}

/** How many indexed documents of the learner are ready to search. */
export function readyIndexCount(sqlite: Database, tenantId: string, userId: string): number {
  return sqlite
    .query<{ n: number }, [string, string]>(
      "SELECT count(*) AS n FROM documents WHERE tenant_id = ? AND user_id = ? AND kind = 'index' AND status = 'ready'",
    )
    .get(tenantId, userId)!.n;
}

/** Puts the failed ones of `ids` back to processing, for another try. */
export function reopenFailedDocuments(sqlite: Database, ids: readonly string[]): void {
  sqlite.run(
    `UPDATE documents SET status = 'processing', error = NULL
      WHERE status = 'error' AND id IN (SELECT value FROM json_each(?))`,
    [JSON.stringify(ids)],
  );
}
