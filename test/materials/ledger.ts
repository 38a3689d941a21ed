/** Reads of a test server's usage ledger. */
import { Database } from "bun:sqlite";
import { join } from "node:path";

export function usageRows(
  dataDir: string,
  operation: string,
): { amount_micros: number; ref_id: string | null; user_id: string | null }[] {
  const db = new Database(join(dataDir, "courseforge.db"), { readonly: true });
  try {
    return db
      .query<{ amount_micros: number; ref_id: string | null; user_id: string | null }, [string]>(
        "SELECT amount_micros, ref_id, user_id FROM usage_events WHERE operation = ? ORDER BY created_at",
      )
      .all(operation);
  } finally {
    db.close();
  }
}
