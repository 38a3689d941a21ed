/** The text of stored chunks, for callers that keep chunk ids (a chapter's cited passages). */
import type { Database } from "bun:sqlite";

/** Chunk id → text; ids whose chunk is gone are absent. */
export function chunkTexts(sqlite: Database, chunkIds: readonly string[]): Map<string, string> {
  if (chunkIds.length === 0) return new Map();
  const rows = sqlite
    .query<{ id: string; text: string }, [string]>(
      "SELECT id, text FROM retrieval_chunks WHERE id IN (SELECT value FROM json_each(?))",
    )
    .all(JSON.stringify(chunkIds));
  return new Map(rows.map((r) => [r.id, r.text]));
}
