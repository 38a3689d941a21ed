/**
 * How a delivery's attempt is queued: a job of the queue, written in the transaction that records
 * the delivery, so the two commit together. The queue's table belongs to src/jobs, which is not
 * behind the seam yet; until it is, SQLite's queue is the only one the server has.
 */
import type { Database } from "bun:sqlite";
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

/**
 * The job queue on the server's SQLite connection. A seam transaction on SQLite is that same
 * connection, so the job commits (or rolls back) with it.
 */
export function sqliteDeliveryQueue(sqlite: Database, clock: Clock): DeliveryQueue {
  return async (_tx, j) => enqueueDeliveryJob(sqlite, clock, j);
}

/** The job row on SQLite, for callers in a synchronous transaction too. */
export function enqueueDeliveryJob(sqlite: Database, clock: Clock, j: DeliveryAttemptJob): string {
  return enqueueJob(
    { sqlite, clock },
    { type: DELIVERY_JOB, tenantId: j.tenantId, payload: { delivery_id: j.deliveryId }, runAfter: j.runAfter },
  ).id;
}
