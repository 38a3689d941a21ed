/**
 * The outbox: an event becomes one delivery row per matching webhook, plus the job that makes its
 * first attempt, written in the caller's transaction. So an event is never lost (it is committed
 * with the course state that caused it) and never sent for a state that rolled back.
 */
import type { Clock } from "../clock.ts";
import { jsonArrayHas, type Query, type Sql, sql } from "../db/sql.ts";
import { newId } from "../util.ts";
import type { DeliveryQueue } from "./delivery-queue.ts";
import type { EmittedEvent } from "./events.ts";

export interface OutboxEvent {
  tenantId: string;
  event: EmittedEvent;
  data: Record<string, unknown>;
}

/** The exact body sent (and signed) for an event: the envelope {event, data}. */
export function envelope(event: EmittedEvent, data: Record<string, unknown>): string {
  return JSON.stringify({ event, data });
}

const subscribedWebhooks = (e: OutboxEvent): Query =>
  sql`SELECT id FROM webhooks
       WHERE tenant_id = ${e.tenantId} AND active = 1 AND ${jsonArrayHas("webhooks.events", e.event)}
       ORDER BY created_at`;

interface NewDelivery {
  id: string;
  webhookId: string;
  e: OutboxEvent;
  body: string;
  jobId: string;
  now: Date;
}

const insertDelivery = (d: NewDelivery): Query =>
  sql`INSERT INTO webhook_deliveries (id, webhook_id, tenant_id, event, body, status, attempts, job_id, next_attempt_at, created_at)
      VALUES (${d.id}, ${d.webhookId}, ${d.e.tenantId}, ${d.e.event}, ${d.body}, 'pending', 0, ${d.jobId}, ${d.now.toISOString()}, ${d.now.toISOString()})`;

/**
 * Queues the event for every active webhook of the tenant subscribed to it, in `db`'s transaction
 * when it is one (as a savepoint), or in one of its own.
 */
export function queueEvent(db: Sql, queue: DeliveryQueue, clock: Clock, e: OutboxEvent): Promise<void> {
  return db.transaction(async (tx) => {
    const targets = await tx.all<{ id: string }>(subscribedWebhooks(e));
    if (targets.length === 0) return;
    const body = envelope(e.event, e.data);
    const now = clock.now();
    for (const t of targets) {
      const id = newId();
      const jobId = await queue(tx, { tenantId: e.tenantId, deliveryId: id, runAfter: now });
      await tx.run(insertDelivery({ id, webhookId: t.id, e, body, jobId, now }));
    }
  });
}
