/**
 * POST /v2/webhooks/{id}/test: one `test` delivery, attempted at once and answered with its
 * result. It is logged like any delivery but never retried and never counts toward deactivation;
 * it is also sent to an inactive webhook, so an operator can check a receiver before re-registering.
 */
import { isoNow } from "../clock.ts";
import { type Sql, sql } from "../db/sql.ts";
import { newId } from "../util.ts";
import { logAttempt } from "./attempts.ts";
import { envelope } from "./outbox.ts";
import type { WebhookTarget } from "./registration.ts";
import { type SendOptions, sendDelivery } from "./send.ts";

export interface TestResult {
  delivery_id: string;
  delivered: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export async function sendTestEvent(db: Sql, opts: SendOptions, webhook: WebhookTarget): Promise<TestResult> {
  const id = newId();
  const body = envelope("test", { message: "Test event from courseforge", webhook_id: webhook.id });
  const r = await sendDelivery(opts, { url: webhook.url, secret: webhook.secret, deliveryId: id, event: "test", body });
  // Written after the attempt, so a crash mid-attempt leaves no delivery that looks pending for ever.
  // The webhook may have been deleted meanwhile; then there is no log to write to.
  await db.transaction(async (tx) => {
    const inserted = await tx.run(
      sql`INSERT INTO webhook_deliveries (id, webhook_id, tenant_id, event, body, status, attempts, created_at, finished_at)
          SELECT ${id}, id, tenant_id, 'test', ${body}, ${r.ok ? "delivered" : "failed"}, 1, ${r.startedAt}, ${isoNow(opts.clock)}
            FROM webhooks WHERE id = ${webhook.id}`,
    );
    if (inserted === 1) await logAttempt(tx, id, 1, r);
  });
  return {
    delivery_id: id,
    delivered: r.ok,
    status_code: r.statusCode,
    duration_ms: Math.round(r.durationMs),
    error: r.error,
  };
}
