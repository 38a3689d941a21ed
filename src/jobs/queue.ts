/**
 * The persistent job queue: rows in `jobs`, claimed with a lease. A job's handler commits its own
 * progress (e.g. chapter by chapter), so a job that is re-run after a crash or a graceful stop
 * continues from its last commit instead of starting over.
 */
import type { Database } from "bun:sqlite";
import type { Static, TSchema } from "@sinclair/typebox";
import type { Clock } from "../clock.ts";
import { AppError } from "../errors.ts";
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

type Wake = () => void;
/** Idle workers of this process, woken right away by an enqueue instead of at their next poll. */
export const wakers = new Set<Wake>();

/** What enqueueing needs: the database, and the clock that says when a job is due. */
export interface QueueDeps {
  sqlite: Database;
  clock: Clock;
}

/** Queues a job; a payload that does not fit the type's schema throws (a bug in the caller). */
export function enqueueJob<S extends TSchema>({ sqlite, clock }: QueueDeps, job: NewJob<S> & PayloadOf<S>): JobRow {
  const payload = job.payload ?? {};
  assertPayload(job.type, payload);
  const now = clock.now();
  const row = sqlite
    .query<JobRow, Record<string, string | number | null>>(
      `INSERT INTO jobs (id, tenant_id, user_id, type, status, payload, course_id, request_id, max_attempts, run_after, created_at, updated_at)
       VALUES ($id, $tenant, $user, $type, 'queued', $payload, $course, $request, $max, $runAfter, $now, $now) RETURNING *`,
    )
    .get({
      id: job.id ?? newId(),
      tenant: job.tenantId ?? null,
      user: job.userId ?? null,
      type: job.type.type,
      payload: JSON.stringify(payload),
      course: job.courseId ?? null,
      request: job.requestId ?? null,
      max: job.maxAttempts ?? 3,
      runAfter: (job.runAfter ?? now).toISOString(),
      now: now.toISOString(),
    })!;
  // Wake idle workers of this process right away instead of at the next poll.
  queueMicrotask(() => {
    for (const w of wakers) w();
  });
  return row;
}

export function getJob(sqlite: Database, id: string): JobRow | null {
  return sqlite.query<JobRow, [string]>("SELECT * FROM jobs WHERE id = ?").get(id);
}

/** The newest job of one type for a course (e.g. its current or last generation run, not a podcast job). */
export function latestCourseJob(sqlite: Database, courseId: string, kind: JobType): JobRow | null {
  return sqlite
    .query<JobRow, [string, string]>(
      "SELECT * FROM jobs WHERE course_id = ? AND type = ? ORDER BY created_at DESC, rowid DESC LIMIT 1",
    )
    .get(courseId, kind.type);
}

/** A queued or running job of the course, if any. */
export function activeCourseJob(sqlite: Database, courseId: string): JobRow | null {
  return sqlite
    .query<JobRow, [string]>("SELECT * FROM jobs WHERE course_id = ? AND status IN ('queued', 'running') LIMIT 1")
    .get(courseId);
}

export function queueDepth(sqlite: Database): Record<JobStatus, number> {
  const out: Record<JobStatus, number> = { queued: 0, running: 0, completed: 0, failed: 0 };
  for (const r of sqlite
    .query<{ status: JobStatus; n: number }, []>("SELECT status, count(*) AS n FROM jobs GROUP BY status")
    .all()) {
    out[r.status] = r.n;
  }
  return out;
}
