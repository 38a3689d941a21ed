/**
 * The persistent job queue: rows in `jobs`, claimed with a lease. A job's handler commits its own
 * progress (e.g. chapter by chapter), so a job that is re-run after a crash or a graceful stop
 * continues from its last commit instead of starting over. Its statements are `sql` templates of
 * the two-engine seam; the worker's own are in leases.ts.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { Clock } from "../clock.ts";
import { type Query, type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { announce, CHANNELS } from "../events/bus.ts";
import { newId } from "../util.ts";
import type { JobType } from "./definition.ts";
import { assertPayload } from "./payload.ts";
import type { JobRow, JobStatus } from "./row.ts";

export type { JobRow, JobStatus } from "./row.ts";

export interface NewJob<S extends TSchema> {
  type: JobType<S>;
  tenantId?: string | null;
  userId?: string | null;
  courseId?: string | null;
  requestId?: string | null;
  maxAttempts?: number;
  runAfter?: Date;
  id?: string;
}

/** The payload may be left out when the type's schema accepts an empty object. */
type PayloadOf<S extends TSchema> =
  Record<string, never> extends Static<S> ? { payload?: Static<S> } : { payload: Static<S> };

/**
 * Whether another run of a failed job could succeed. Not when the error says so (`retriable:
 * false`), nor when it refuses the job's own input (an AppError of a 4xx status but 408 and 429:
 * SOURCES_FAILED, TOPIC_NOT_COVERED, NOT_FOUND…), which the next run would read again and be
 * refused the same way. Failures of what lies outside the input (the model server, a fetch, the
 * disk, a rate limit) are retried.
 */
export function isRetriable(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return true;
  if ((err as { retriable?: boolean }).retriable === false) return false;
  const refusesInput = err instanceof AppError && err.status >= 400 && err.status < 500;
  return !refusesInput || err.status === 408 || err.status === 429;
}

/** Marker a handler returns when it stopped early for shutdown; the job goes back to the queue. */
export const INTERRUPTED = Symbol("interrupted");

/** The INSERT of a new job, checked against its type's schema (a payload that does not fit is a bug in the caller). */
function insertJob<S extends TSchema>(clock: Clock, job: NewJob<S> & PayloadOf<S>): Query {
  const payload = job.payload ?? {};
  assertPayload(job.type, payload);
  const now = clock.now().toISOString();
  return sql`INSERT INTO jobs (id, tenant_id, user_id, type, status, payload, course_id, request_id, max_attempts, run_after,
                               created_at, updated_at)
             VALUES (${job.id ?? newId()}, ${job.tenantId ?? null}, ${job.userId ?? null}, ${job.type.type}, 'queued',
                     ${JSON.stringify(payload)}, ${job.courseId ?? null}, ${job.requestId ?? null}, ${job.maxAttempts ?? 3},
                     ${job.runAfter?.toISOString() ?? now}, ${now}, ${now})
             RETURNING *`;
}

/** Queues a job, in `sql`'s transaction when it is one (the job commits with the caller's rows). */
export async function enqueueJob<S extends TSchema>(
  { sql: db, clock }: { sql: Sql; clock: Clock },
  job: NewJob<S> & PayloadOf<S>,
): Promise<JobRow> {
  const row = (await db.get<JobRow>(insertJob(clock, job)))!;
  // Idle workers (of any node) claim it now instead of at their next poll.
  await announce(db, CHANNELS.jobQueued, row.id);
  return row;
}

export function getJob(db: Sql, id: string): Promise<JobRow | null> {
  return db.get<JobRow>(sql`SELECT * FROM jobs WHERE id = ${id}`);
}

/** The newest job of one type for a course (e.g. its current or last generation run, not a podcast job). */
export function latestCourseJob(db: Sql, courseId: string, kind: JobType): Promise<JobRow | null> {
  return db.get<JobRow>(
    sql`SELECT * FROM jobs WHERE course_id = ${courseId} AND type = ${kind.type} ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
}

/** A queued or running job of the course, if any (a course is not deleted under its job). */
export function activeCourseJob(db: Sql, courseId: string): Promise<JobRow | null> {
  return db.get<JobRow>(
    sql`SELECT * FROM jobs WHERE course_id = ${courseId} AND status IN ('queued', 'running') LIMIT 1`,
  );
}

export async function queueDepth(db: Sql): Promise<Record<JobStatus, number>> {
  const out: Record<JobStatus, number> = { queued: 0, running: 0, completed: 0, failed: 0 };
  const rows = await db.all<{ status: JobStatus; n: number }>(
    sql`SELECT status, CAST(count(*) AS INTEGER) AS n FROM jobs GROUP BY status`,
  );
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}
