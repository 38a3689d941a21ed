/**
 * What happens after each delivery attempt, committed in one transaction with the attempt's log
 * entry: delivered; retried after the next delay of WEBHOOK_RETRY_SCHEDULE; or, once every delay
 * has been used, failed, with the webhook deactivated and its other pending deliveries canceled.
 *
 * Attempt n (1 = first try) that fails is followed by attempt n+1 after schedule[n-1] seconds. With
 * the default schedule of five delays that is 6 attempts, the first try plus 5 retries, and the
 * webhook turns inactive when the 5th retry fails.
 */
import type { Database } from "bun:sqlite";
import { isoNow } from "../clock.ts";
import { enqueueJob, type QueueDeps } from "../jobs/queue.ts";
import { newId } from "../util.ts";
import { DELIVERY_JOB } from "./events.ts";

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
export function pendingDeliveryForJob(sqlite: Database, deliveryId: string, jobId: string): PendingDelivery | null {
  return sqlite
    .query<PendingDelivery, [string, string]>(
      `SELECT d.id, d.tenant_id, d.webhook_id, d.event, d.body, d.attempts, w.url, w.secret, w.active
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.id = ? AND d.job_id = ? AND d.status = 'pending'`,
    )
    .get(deliveryId, jobId);
}

export function cancelDelivery({ sqlite, clock }: QueueDeps, deliveryId: string): void {
  sqlite.run(
    "UPDATE webhook_deliveries SET status = 'canceled', job_id = NULL, next_attempt_at = NULL, finished_at = ? WHERE id = ? AND status = 'pending'",
    [isoNow(clock), deliveryId],
  );
}

/** Ends a delivery whose job failed outside the attempt itself (e.g. the database refused a write). */
export function abandonDelivery({ sqlite, clock }: QueueDeps, deliveryId: string): void {
  sqlite.run(
    "UPDATE webhook_deliveries SET status = 'failed', job_id = NULL, next_attempt_at = NULL, finished_at = ? WHERE id = ? AND status = 'pending'",
    [isoNow(clock), deliveryId],
  );
}

export function logAttempt(sqlite: Database, deliveryId: string, attempt: number, r: AttemptResult): void {
  sqlite.run(
    `INSERT INTO webhook_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, ok)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [newId(), deliveryId, attempt, r.startedAt, Math.round(r.durationMs), r.statusCode, r.error, r.ok ? 1 : 0],
  );
}

export function recordAttempt(
  deps: QueueDeps,
  d: PendingDelivery,
  r: AttemptResult,
  schedule: readonly number[],
): DeliveryOutcome {
  const { sqlite, clock } = deps;
  const attempt = d.attempts + 1;
  return sqlite.transaction((): DeliveryOutcome => {
    // While this attempt was in flight the webhook may have been deleted (nothing left to log to),
    // or deactivated by another delivery's last failure (logged, not retried).
    const current = sqlite
      .query<{ status: string }, [string]>("SELECT status FROM webhook_deliveries WHERE id = ?")
      .get(d.id);
    if (!current) return "canceled";
    logAttempt(sqlite, d.id, attempt, r);
    const now = isoNow(clock);
    if (current.status !== "pending") {
      sqlite.run("UPDATE webhook_deliveries SET attempts = ? WHERE id = ?", [attempt, d.id]);
      return "canceled";
    }
    if (r.ok) {
      sqlite.run(
        "UPDATE webhook_deliveries SET status = 'delivered', attempts = ?, job_id = NULL, next_attempt_at = NULL, finished_at = ? WHERE id = ?",
        [attempt, now, d.id],
      );
      return "delivered";
    }
    const delay = schedule[attempt - 1];
    if (delay !== undefined) {
      const runAfter = new Date(clock.now().getTime() + delay * 1000);
      const job = enqueueJob(deps, {
        type: DELIVERY_JOB,
        tenantId: d.tenant_id,
        payload: { delivery_id: d.id },
        runAfter,
      });
      sqlite.run("UPDATE webhook_deliveries SET attempts = ?, job_id = ?, next_attempt_at = ? WHERE id = ?", [
        attempt,
        job.id,
        runAfter.toISOString(),
        d.id,
      ]);
      return "retrying";
    }
    sqlite.run(
      "UPDATE webhook_deliveries SET status = 'failed', attempts = ?, job_id = NULL, next_attempt_at = NULL, finished_at = ? WHERE id = ?",
      [attempt, now, d.id],
    );
    sqlite.run("UPDATE webhooks SET active = 0, deactivated_at = ?, updated_at = ? WHERE id = ?", [
      now,
      now,
      d.webhook_id,
    ]);
    sqlite.run(
      "UPDATE webhook_deliveries SET status = 'canceled', job_id = NULL, next_attempt_at = NULL, finished_at = ? WHERE webhook_id = ? AND status = 'pending'",
      [now, d.webhook_id],
    );
    return "failed";
  })();
}
