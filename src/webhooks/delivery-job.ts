/**
 * The job that makes one delivery attempt. Each attempt is its own job, and the next one is queued
 * in the transaction that logs this one, so the attempt count lives in the delivery row: a crash
 * or a shutdown during an attempt repeats that attempt, and never counts as a failure.
 */
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import { defineJob } from "../jobs/definition.ts";
import type { Logger } from "../log.ts";
import { endDelivery, pendingDeliveryForJob, recordAttempt } from "./attempts.ts";
import { jobDeliveryQueue } from "./delivery-queue.ts";
import { DELIVERY_JOB } from "./events.ts";
import { type SendOptions, sendDelivery } from "./send.ts";

/** Deliveries in flight at once; they mostly wait on the network, and are kept apart from generation jobs. */
const DELIVERY_CONCURRENCY = 16;
/**
 * Deliveries of one tenant in flight at once: a tenant whose receivers hang holds at most this
 * many of the slots above, and the others keep delivering to everyone else.
 */
export const DELIVERIES_PER_TENANT = 4;

export interface DeliveryDeps {
  sql: Sql;
  cfg: Pick<Config, "webhookRetrySchedule">;
  webhookSend: SendOptions;
  log: Logger;
  clock: Clock;
}

export const deliveryJob = defineJob(DELIVERY_JOB, ({ sql: db, cfg, webhookSend, log, clock }: DeliveryDeps) => {
  const queue = jobDeliveryQueue(clock);
  return {
    concurrency: DELIVERY_CONCURRENCY,
    perTenant: DELIVERIES_PER_TENANT,
    async run(job, { delivery_id }) {
      const d = await pendingDeliveryForJob(db, delivery_id, job.id);
      if (!d) return { skipped: true };
      if (d.active !== 1) {
        await endDelivery(db, clock, d.id, "canceled");
        return { canceled: true };
      }
      const result = await sendDelivery(webhookSend, {
        url: d.url,
        secret: d.secret,
        deliveryId: d.id,
        event: d.event,
        body: d.body,
      });
      const outcome = await recordAttempt({ db, queue, clock }, d, result, cfg.webhookRetrySchedule);
      const attempt = d.attempts + 1;
      const fields = {
        delivery_id: d.id,
        webhook_id: d.webhook_id,
        event: d.event,
        attempt,
        status_code: result.statusCode,
        outcome,
      };
      if (outcome === "delivered") log.info("webhook delivered", fields);
      else
        log.warn(
          outcome === "failed"
            ? "webhook delivery failed on its last retry; webhook deactivated"
            : "webhook delivery failed",
          { ...fields, error: result.error },
        );
      return { outcome, attempt, status_code: result.statusCode };
    },
    // Only reached when the bookkeeping itself keeps failing (the attempt never throws); in the
    // transaction that ends the job.
    async onFailure(_job, _reason, payload, tx) {
      if (payload) await endDelivery(tx, clock, payload.delivery_id, "failed");
    },
  };
});
