/**
 * The rate limits' fixed windows counted in PostgreSQL (`rate_windows`, migration
 * 0016_rate_windows), so every node spends one budget. One upsert takes a call: it inserts the
 * window's first, or adds one under the row's lock unless the bucket is already at its limit, so
 * nodes racing for a bucket's last call cannot both take it.
 */
import { type Sql, sql } from "./sql.ts";

/** The bucket's count in `window` with this call, or null when it was already at `limit` (not counted). */
export async function takeFromWindow(db: Sql, bucket: string, window: number, limit: number): Promise<number | null> {
  const row = await db.get<{ used: number }>(
    sql`INSERT INTO rate_windows (bucket, window_start, used) VALUES (${bucket}, ${window}, 1)
        ON CONFLICT (bucket, window_start) DO UPDATE SET used = rate_windows.used + 1
          WHERE rate_windows.used < ${limit}
        RETURNING used`,
  );
  return row ? Number(row.used) : null;
}

/** Deletes the counts of windows before `window`, which no decision reads again. */
export async function dropPastWindows(db: Sql, window: number): Promise<void> {
  await db.run(sql`DELETE FROM rate_windows WHERE window_start < ${window}`);
}
