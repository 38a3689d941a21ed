/** The per-webhook delivery log operators read: each delivery with every attempt made so far. */
import { inJsonArray, type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { getOrCreate } from "../util.ts";
import { ownedWebhook } from "./registration.ts";

export interface AttemptEntry {
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  ok: boolean;
}

export interface DeliveryEntry {
  id: string;
  event: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  finished_at: string | null;
  attempts: AttemptEntry[];
}

// seq is a string on PostgreSQL (a bigint); only its digits are used.
type DeliveryRow = Omit<DeliveryEntry, "attempts" | "attempt_count"> & { attempts: number; seq: number | string };

// The cursor is the row's insertion order, which is also the order the log is read in.
const encodeCursor = (seq: number | string) => Buffer.from(`d${seq}`).toString("base64url");

function decodeCursor(cursor: string): number {
  const m = /^d(\d{1,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m) throw new AppError("VALIDATION_ERROR", "cursor is not a value returned by a previous page");
  return Number(m[1]);
}

/** Newest deliveries first; 404 when the webhook is not the tenant's. */
export async function deliveryLog(db: Sql, tenantId: string, webhookId: string, limit: number, cursor?: string | null) {
  await ownedWebhook(db, tenantId, webhookId);
  const before = cursor ? decodeCursor(cursor) : Number.MAX_SAFE_INTEGER;
  const rows = await db.all<DeliveryRow>(
    sql`SELECT rowid AS seq, id, event, status, attempts, next_attempt_at, created_at, finished_at FROM webhook_deliveries
         WHERE webhook_id = ${webhookId} AND rowid < ${before} ORDER BY rowid DESC LIMIT ${limit + 1}`,
  );
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const byDelivery = new Map<string, AttemptEntry[]>();
  const attempts = await db.all<Omit<AttemptEntry, "ok"> & { delivery_id: string; ok: number }>(
    sql`SELECT delivery_id, attempt, started_at, duration_ms, status_code, error, ok FROM webhook_attempts
         WHERE ${inJsonArray(
           "delivery_id",
           page.map((r) => r.id),
         )} ORDER BY delivery_id, attempt`,
  );
  for (const { delivery_id, ok, ...a } of attempts) {
    const list = getOrCreate(byDelivery, delivery_id, () => []);
    list.push({ ...a, ok: ok === 1 });
  }
  const last = page[page.length - 1];
  return {
    data: page.map(
      ({ attempts: count, seq: _, ...r }): DeliveryEntry => ({
        ...r,
        attempt_count: count,
        attempts: byDelivery.get(r.id) ?? [],
      }),
    ),
    pagination: { limit, has_more: hasMore, next_cursor: hasMore && last ? encodeCursor(last.seq) : null },
  };
}
