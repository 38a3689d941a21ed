/**
 * The per-tenant usage ledger (usage_events): one row per billable or capped operation.
 * amount_micros is bigint on PostgreSQL, which Bun hands back as a string, and counts there are
 * bigint too: every figure read here goes through Number (sums stay far below 2^53 micros).
 */
import { inJsonArray, type Query, type Sql, sql } from "../db/sql.ts";
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

const insertUsage = (id: string, e: UsageEvent): Query =>
  sql`INSERT INTO usage_events (id, tenant_id, user_id, api_key_id, key_env, operation, quantity, amount_micros, ref_id, created_at)
      VALUES (${id}, ${e.tenantId}, ${e.userId ?? null}, ${e.apiKeyId ?? null}, ${e.keyEnv}, ${e.operation},
              ${e.quantity ?? 1}, ${Math.round(e.amountMicros ?? 0)}, ${e.refId ?? null}, ${nowIso()})`;

/** Records one event, in `db`'s transaction when it is one. */
export async function addUsage(db: Sql, event: UsageEvent): Promise<string> {
  const id = newId();
  await db.run(insertUsage(id, event));
  return id;
}

/** Gives back one event: the request it was charged for failed. */
export async function removeUsage(db: Sql, id: string): Promise<void> {
  await db.run(sql`DELETE FROM usage_events WHERE id = ${id}`);
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
export async function monthlyTotals(db: Sql, tenantId: string, now: Date): Promise<OperationTotal[]> {
  const { start, end } = monthBounds(now);
  const rows = await db.all<{ operation: string; events: unknown; quantity: unknown; amount: unknown }>(
    sql`SELECT operation, count(*) AS events, coalesce(sum(quantity), 0) AS quantity, coalesce(sum(amount_micros), 0) AS amount
          FROM usage_events
         WHERE tenant_id = ${tenantId} AND created_at >= ${start} AND created_at < ${end}
         GROUP BY operation ORDER BY operation`,
  );
  return rows.map((r) => ({
    operation: r.operation,
    events: Number(r.events),
    quantity: Number(r.quantity),
    amountMicros: Number(r.amount),
  }));
}

/** Events of one operation on one key environment this month (test-key caps). */
const monthlyCountQuery = (tenantId: string, keyEnv: KeyEnv, operation: string, now: Date): Query => {
  const { start, end } = monthBounds(now);
  return sql`SELECT count(*) AS n FROM usage_events
              WHERE tenant_id = ${tenantId} AND key_env = ${keyEnv} AND operation = ${operation}
                AND created_at >= ${start} AND created_at < ${end}`;
};

/** monthlyCountQuery's count (a course's usage record: the courses used this month). */
export async function monthlyCount(
  db: Sql,
  tenantId: string,
  keyEnv: KeyEnv,
  operation: string,
  now: Date,
): Promise<number> {
  return Number((await db.get<{ n: unknown }>(monthlyCountQuery(tenantId, keyEnv, operation, now)))!.n);
}

/** What the events referring to `refIds` (courses, documents) billed, in micro-dollars. */
export async function billedMicros(db: Sql, refIds: string[]): Promise<number> {
  const row = await db.get<{ n: unknown }>(
    sql`SELECT coalesce(sum(amount_micros), 0) AS n FROM usage_events WHERE ${inJsonArray("ref_id", refIds)}`,
  );
  return Number(row!.n);
}

/** The key environment an operation on `refId` was billed to, or null when nothing was billed. */
export async function billedKeyEnv(db: Sql, refId: string, operation: string): Promise<KeyEnv | null> {
  const row = await db.get<{ key_env: KeyEnv }>(
    sql`SELECT key_env FROM usage_events WHERE ref_id = ${refId} AND operation = ${operation} LIMIT 1`,
  );
  return row?.key_env ?? null;
}
