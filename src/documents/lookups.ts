/** Small reads and one status reset that other folders need of document records. */
import type { Database } from "bun:sqlite";
import type { RepeatSummary } from "./repeated-sections.ts";

/** A document's own title (from its metadata or first heading), or null. */
export function documentTitle(sqlite: Database, id: string): string | null {
  return (
    sqlite
      .query<{ title: string | null }, [string]>("SELECT title FROM documents WHERE id = ?")
      .get(id)
      ?.title?.trim() || null
  );
}

/** What a document repeats of itself, as its details say it; null when never checked. */
export function documentRepeats(sqlite: Database, id: string): RepeatSummary | null {
  const row = sqlite.query<{ repeats: string | null }, [string]>("SELECT repeats FROM documents WHERE id = ?").get(id);
  return row?.repeats ? (JSON.parse(row.repeats) as RepeatSummary) : null;
}

/** The chunks a document repeats of itself (documents/repeated-sections.ts); none when never checked. */
export function repeatedChunkIds(sqlite: Database, id: string): Set<string> {
  const row = sqlite
    .query<{ repeated_chunks: string | null }, [string]>("SELECT repeated_chunks FROM documents WHERE id = ?")
    .get(id);
  return new Set(row?.repeated_chunks ? (JSON.parse(row.repeated_chunks) as string[]) : []);
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
