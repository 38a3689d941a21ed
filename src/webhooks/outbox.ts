/**
 * The outbox: an event becomes one delivery row per matching webhook, plus the job that makes its
 * first attempt, written in the caller's transaction. So an event is never lost (it is committed
 * with the course state that caused it) and never sent for a state that rolled back.
 */
import { isoNow } from "../clock.ts";
import { enqueueJob, type QueueDeps } from "../jobs/queue.ts";
import { newId } from "../util.ts";
import { DELIVERY_JOB, type EmittedEvent } from "./events.ts";

export interface OutboxEvent {
  tenantId: string;
  event: EmittedEvent;
  data: Record<string, unknown>;
}

/** The exact body sent (and signed) for an event: the envelope {event, data}. */
export function envelope(event: EmittedEvent, data: Record<string, unknown>): string {
  return JSON.stringify({ event, data });
}

/**
 * Queues the event for every active webhook of the tenant subscribed to it. Synchronous; call it
 * inside the transaction that changes the course state (it nests as a savepoint there, and is
 * atomic on its own when called outside one).
 */
export function recordEvent(deps: QueueDeps, e: OutboxEvent): void {
  const { sqlite } = deps;
  sqlite.transaction(() => {
    const targets = sqlite
      .query<{ id: string }, [string, string]>(
        `SELECT id FROM webhooks
          WHERE tenant_id = ? AND active = 1 AND EXISTS (SELECT 1 FROM json_each(webhooks.events) WHERE value = ?)
          ORDER BY created_at`,
      )
      .all(e.tenantId, e.event);
    if (targets.length === 0) return;
    const body = envelope(e.event, e.data);
    for (const t of targets) queueDelivery(deps, { webhookId: t.id, tenantId: e.tenantId, event: e.event, body });
  })();
}

function queueDelivery(
  deps: QueueDeps,
  d: { webhookId: string; tenantId: string; event: EmittedEvent; body: string },
): void {
  const id = newId();
  const now = deps.clock.now();
  const job = enqueueJob(deps, {
    type: DELIVERY_JOB,
    tenantId: d.tenantId,
    payload: { delivery_id: id },
    runAfter: now,
  });
  deps.sqlite.run(
    `INSERT INTO webhook_deliveries (id, webhook_id, tenant_id, event, body, status, attempts, job_id, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
    [id, d.webhookId, d.tenantId, d.event, d.body, job.id, now.toISOString(), isoNow(deps.clock)],
  );
}
