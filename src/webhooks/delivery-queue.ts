/**
 * How a delivery's attempt is queued: a job of the queue, written in the transaction that records
 * the delivery, so the two commit together.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { DELIVERY_JOB } from "./events.ts";

export interface DeliveryAttemptJob {
  tenantId: string;
  deliveryId: string;
  runAfter: Date;
}

/** Queues the job that attempts `deliveryId` in transaction `tx`; answers the job's id. */
export type DeliveryQueue = (tx: Sql, job: DeliveryAttemptJob) => Promise<string>;

const deliveryJobOf = (j: DeliveryAttemptJob) =>
  ({ type: DELIVERY_JOB, tenantId: j.tenantId, payload: { delivery_id: j.deliveryId }, runAfter: j.runAfter }) as const;

/** The job queue (src/jobs), on the engine of the transaction it is handed. */
export function jobDeliveryQueue(clock: Clock): DeliveryQueue {
  return async (tx, j) => (await enqueueJob({ sql: tx, clock }, deliveryJobOf(j))).id;
}
