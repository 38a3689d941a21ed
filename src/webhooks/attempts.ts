/**
 * What happens after each delivery attempt, committed in one transaction with the attempt's log
 * entry: delivered; retried after the next delay of WEBHOOK_RETRY_SCHEDULE; or, once every delay
 * has been used, failed, with the webhook deactivated and its other pending deliveries canceled.
 *
 * Attempt n (1 = first try) that fails is followed by attempt n+1 after schedule[n-1] seconds. With
 * the default schedule of five delays that is 6 attempts, the first try plus 5 retries, and the
 * webhook turns inactive when the 5th retry fails.
 */
import { type Clock, isoNow } from "../clock.ts";
import { forUpdate, type Query, type Sql, sql } from "../db/sql.ts";
import { newId } from "../util.ts";
import type { DeliveryQueue } from "./delivery-queue.ts";

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  startedAt: string;
}

/** A pending delivery with what its attempt needs; the secret never leaves src/webhooks. */
export interface PendingDelivery {
  id: string;
  tenant_id: string;
  webhook_id: string;
  event: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  active: number;
}

export type DeliveryOutcome = "delivered" | "retrying" | "failed" | "canceled";

/**
 * The delivery a job is meant to attempt, or null when there is nothing to do: the delivery or its
 * webhook was deleted, it already finished, or a later job owns it (this one is a re-run after a
 * crash between committing the attempt and completing the job).
 */
export function pendingDeliveryForJob(db: Sql, deliveryId: string, jobId: string): Promise<PendingDelivery | null> {
  return db.get<PendingDelivery>(
    sql`SELECT d.id, d.tenant_id, d.webhook_id, d.event, d.body, d.attempts, w.url, w.secret, w.active
          FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.id = ${deliveryId} AND d.job_id = ${jobId} AND d.status = 'pending'`,
  );
}

/** Ends a pending delivery as `canceled` (its webhook turned inactive) or `failed` (its job failed outside the attempt). */
const endDeliveryStatement = (clock: Clock, deliveryId: string, status: "canceled" | "failed"): Query =>
  sql`UPDATE webhook_deliveries SET status = ${status}, job_id = NULL, next_attempt_at = NULL, finished_at = ${isoNow(clock)}
       WHERE id = ${deliveryId} AND status = 'pending'`;

export async function endDelivery(
  db: Sql,
  clock: Clock,
  deliveryId: string,
  status: "canceled" | "failed",
): Promise<void> {
  await db.run(endDeliveryStatement(clock, deliveryId, status));
}

export async function logAttempt(tx: Sql, deliveryId: string, attempt: number, r: AttemptResult): Promise<void> {
  await tx.run(
    sql`INSERT INTO webhook_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, ok)
        VALUES (${newId()}, ${deliveryId}, ${attempt}, ${r.startedAt}, ${Math.round(r.durationMs)}, ${r.statusCode}, ${r.error}, ${r.ok ? 1 : 0})`,
  );
}

export interface AttemptDeps {
  db: Sql;
  queue: DeliveryQueue;
  clock: Clock;
}

export function recordAttempt(
  { db, queue, clock }: AttemptDeps,
  d: PendingDelivery,
  r: AttemptResult,
  schedule: readonly number[],
): Promise<DeliveryOutcome> {
  const attempt = d.attempts + 1;
  return db.transaction(async (tx): Promise<DeliveryOutcome> => {
    // While this attempt was in flight the webhook may have been deleted (nothing left to log to),
    // or deactivated by another delivery's last failure (logged, not retried), which the row lock
    // keeps from happening between this read and the writes below.
    const current = await tx.get<{ status: string }>(
      sql`SELECT status FROM webhook_deliveries WHERE id = ${d.id}${forUpdate}`,
    );
    if (!current) return "canceled";
    await logAttempt(tx, d.id, attempt, r);
    const now = isoNow(clock);
    if (current.status !== "pending") {
      await tx.run(sql`UPDATE webhook_deliveries SET attempts = ${attempt} WHERE id = ${d.id}`);
      return "canceled";
    }
    if (r.ok) {
      await tx.run(
        sql`UPDATE webhook_deliveries SET status = 'delivered', attempts = ${attempt}, job_id = NULL, next_attempt_at = NULL, finished_at = ${now}
             WHERE id = ${d.id}`,
      );
      return "delivered";
    }
    const delay = schedule[attempt - 1];
    if (delay !== undefined) {
      const runAfter = new Date(clock.now().getTime() + delay * 1000);
      const jobId = await queue(tx, { tenantId: d.tenant_id, deliveryId: d.id, runAfter });
      await tx.run(
        sql`UPDATE webhook_deliveries SET attempts = ${attempt}, job_id = ${jobId}, next_attempt_at = ${runAfter.toISOString()}
             WHERE id = ${d.id}`,
      );
      return "retrying";
    }
    await tx.run(
      sql`UPDATE webhook_deliveries SET status = 'failed', attempts = ${attempt}, job_id = NULL, next_attempt_at = NULL, finished_at = ${now}
           WHERE id = ${d.id}`,
    );
    await tx.run(
      sql`UPDATE webhooks SET active = 0, deactivated_at = ${now}, updated_at = ${now} WHERE id = ${d.webhook_id}`,
    );
    await tx.run(
      sql`UPDATE webhook_deliveries SET status = 'canceled', job_id = NULL, next_attempt_at = NULL, finished_at = ${now}
           WHERE webhook_id = ${d.webhook_id} AND status = 'pending'`,
    );
    return "failed";
  });
}
