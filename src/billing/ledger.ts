/** The per-tenant usage ledger (usage_events): one row per billable or capped operation. */
import type { Database } from "bun:sqlite";
import { and, count, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { usageEvents } from "../db/schema/index.ts";
import type { KeyEnv } from "../tenants/keys.ts";
import { newId, nowIso } from "../util.ts";

export interface UsageEvent {
  tenantId: string;
  userId?: string | null;
  apiKeyId?: string | null;
  keyEnv: KeyEnv;
  operation: string;
  quantity?: number;
  amountMicros?: number;
  /** What was used: a course, document or notes id. */
  refId?: string | null;
}

/** The database or a transaction on it, so usage can be written with the row it pays for. */
export type LedgerWriter = Pick<Db, "insert">;

export function recordUsage(db: LedgerWriter, event: UsageEvent): string {
  const id = newId();
  db.insert(usageEvents)
    .values({
      id,
      tenantId: event.tenantId,
      userId: event.userId ?? null,
      apiKeyId: event.apiKeyId ?? null,
      keyEnv: event.keyEnv,
      operation: event.operation,
      quantity: event.quantity ?? 1,
      amountMicros: Math.round(event.amountMicros ?? 0),
      refId: event.refId ?? null,
      createdAt: nowIso(),
    })
    .run();
  return id;
}

/** The current calendar month in UTC, as ISO bounds [start, end). */
export function monthBounds(now: Date): { start: string; end: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start: start.toISOString(), end: end.toISOString() };
}

export interface OperationTotal {
  operation: string;
  events: number;
  quantity: number;
  amountMicros: number;
}

/** A tenant's totals per operation for the month containing `now`. */
export function monthlyTotals(db: Db, tenantId: string, now: Date): OperationTotal[] {
  const { start, end } = monthBounds(now);
  return db
    .select({
      operation: usageEvents.operation,
      events: count(),
      quantity: sql<number>`coalesce(sum(${usageEvents.quantity}), 0)`,
      amountMicros: sql<number>`coalesce(sum(${usageEvents.amountMicros}), 0)`,
    })
    .from(usageEvents)
    .where(and(eq(usageEvents.tenantId, tenantId), gte(usageEvents.createdAt, start), lt(usageEvents.createdAt, end)))
    .groupBy(usageEvents.operation)
    .orderBy(usageEvents.operation)
    .all();
}

/**
 * Events of one operation on one key environment this month (test-key caps), on a bare connection
 * so a cap can also be read from a second, read-only one (see test-caps).
 */
export function monthlyCount(sqlite: Database, tenantId: string, keyEnv: KeyEnv, operation: string, now: Date): number {
  const { start, end } = monthBounds(now);
  return sqlite
    .query<{ n: number }, [string, string, string, string, string]>(
      "SELECT count(*) AS n FROM usage_events WHERE tenant_id = ? AND key_env = ? AND operation = ? AND created_at >= ? AND created_at < ?",
    )
    .get(tenantId, keyEnv, operation, start, end)!.n;
}

/** What the events referring to `refIds` (courses, documents) billed, in micro-dollars. */
export function billedMicros(sqlite: Database, refIds: string[]): number {
  return sqlite
    .query<{ n: number }, [string]>(
      "SELECT coalesce(sum(amount_micros), 0) AS n FROM usage_events WHERE ref_id IN (SELECT value FROM json_each(?))",
    )
    .get(JSON.stringify(refIds))!.n;
}

/** The key environment an operation on `refId` was billed to, or null when nothing was billed. */
export function billedKeyEnv(sqlite: Database, refId: string, operation: string): KeyEnv | null {
  return (
    sqlite
      .query<{ key_env: KeyEnv }, [string, string]>(
        "SELECT key_env FROM usage_events WHERE ref_id = ? AND operation = ? LIMIT 1",
      )
      .get(refId, operation)?.key_env ?? null
  );
}
