/**
 * Following generation jobs from a request (sync and stream modes): the events the worker of this
 * process publishes, ending with one `completed` or `failed` per job. The database is checked
 * every `pollMs` as well, so a follower never hangs on an event it could not hear, and at once
 * when the event bus announces that one of its jobs ended (on any node).
 */
import { billedKeyEnv, billedMicros, monthlyCount, OPERATIONS } from "../billing/index.ts";
import type { Clock } from "../clock.ts";
import { loadConfig } from "../config.ts";
import { type Sql, sql } from "../db/sql.ts";
import type { FailureReason } from "../errors.ts";
import { CHANNELS, type EventBus } from "../events/bus.ts";
import { getJob } from "../jobs/queue.ts";
import { microsToUsd } from "../util.ts";
import {
  type ChapterRef,
  type CourseUsage,
  type FollowedEvent,
  type GenerationEvent,
  subscribe,
  type UsageRecord,
} from "./events.ts";
import { type CourseDocumentsDeps, courseDocuments, documentEvent } from "./ingest-sources.ts";
import { loadCourse } from "./store.ts";

/**
 * Following a job: its rows, its sources' records (the documents owner's), the clock for
 * this month's usage and a course still running, and the bus its end is announced on.
 */
export interface FollowDeps extends CourseDocumentsDeps {
  clock: Clock;
  events: EventBus;
}

const NO_USAGE: CourseUsage = { model: null, engine: null, model_calls: 0, prompt_tokens: 0, completion_tokens: 0 };

function chapterRefs(db: Sql, courseId: string): Promise<ChapterRef[]> {
  return db.all<ChapterRef>(
    sql`SELECT order_index, title FROM chapters WHERE course_id = ${courseId} ORDER BY order_index`,
  );
}

/** The final event of a job, read from the database; null while it is still going. */
async function settledEvent(db: Sql, jobId: string): Promise<GenerationEvent | null> {
  const job = await getJob(db, jobId);
  if (!job?.course_id) return null;
  const course = await db.get<{ id: string; title: string; status: string; error: string | null }>(
    sql`SELECT id, title, status, error FROM courses WHERE id = ${job.course_id}`,
  );
  if (!course) return null;
  if (course.status === "completed") {
    const result = job.result ? (JSON.parse(job.result) as { usage?: CourseUsage }) : null;
    return {
      type: "completed",
      job_id: job.id,
      course_id: course.id,
      title: course.title,
      chapters: await chapterRefs(db, course.id),
      usage: result?.usage ?? NO_USAGE,
    };
  }
  if (job.status === "failed" || (course.status === "failed" && job.status === "completed")) {
    const reason = JSON.parse(job.error ?? course.error ?? "null") as FailureReason | null;
    return {
      type: "failed",
      job_id: job.id,
      course_id: course.id,
      error: reason ?? { code: "INTERNAL", message: "Generation failed", request_id: job.request_id },
    };
  }
  return null;
}

/** The usage record of a completed course, read from its job, its course row and the ledger. */
async function usageRecord(
  { sql: db, clock }: FollowDeps,
  jobId: string,
  courseId: string,
  usage: CourseUsage,
): Promise<UsageRecord> {
  const job = await getJob(db, jobId);
  const course = job?.course_id === courseId ? await loadCourse(db, courseId) : null;
  const keyEnv = (job && course && (await billedKeyEnv(db, courseId, OPERATIONS.course))) || "production";
  const seconds =
    job && course
      ? ((course.completed_at ? Date.parse(course.completed_at) : clock.now().getTime()) - Date.parse(job.created_at)) /
        1000
      : 0;
  return {
    ...usage,
    seconds: Math.max(0, seconds),
    billed_usd: microsToUsd(await billedMicros(db, [courseId])),
    courses_used_this_month:
      job?.tenant_id && course ? await monthlyCount(db, job.tenant_id, keyEnv, OPERATIONS.course, clock.now()) : 0,
    courses_cap: keyEnv === "test" ? loadConfig().testKeyCoursesPerMonth : null,
  };
}

async function withUsageRecord(deps: FollowDeps, e: GenerationEvent): Promise<FollowedEvent> {
  return e.type === "completed" ? { ...e, usage: await usageRecord(deps, e.job_id, e.course_id, e.usage) } : e;
}

const isFinal = (e: GenerationEvent) => e.type === "completed" || e.type === "failed";

/**
 * The `document` events of a job's sources that ended before a follower subscribed: a source that
 * fails at once (an empty file) may end before the stream that asked for it is read.
 */
async function settledDocuments(deps: FollowDeps, jobId: string): Promise<GenerationEvent[]> {
  const courseId = (await getJob(deps.sql, jobId))?.course_id;
  if (!courseId) return [];
  return (await courseDocuments(deps, courseId))
    .filter((d) => d.status !== "processing")
    .map((d) => documentEvent(jobId, courseId, d));
}

export async function* followJobs(
  deps: FollowDeps,
  jobIds: string[],
  opts: { pollMs?: number; signal?: AbortSignal } = {},
): AsyncGenerator<FollowedEvent> {
  const queue: GenerationEvent[] = [];
  let wake: (() => void) | null = null;
  const listener = (e: GenerationEvent) => {
    queue.push(e);
    wake?.();
  };
  const unsubscribe = jobIds.map((id) => subscribe(id, listener));
  const pending = new Set(jobIds);
  // Ids only: the loop below re-reads an ended job's rows; `heard` keeps one announced between the reads and the wait.
  let heard = false;
  const hear = () => {
    heard = true;
    wake?.();
  };
  const unlisten = await deps.events.subscribe(CHANNELS.jobEnded, (id) => pending.has(id) && hear(), hear);
  // A source replayed here may still be published once its job's ingestion returns.
  const documentsSeen = new Set<string>();
  try {
    for (const id of jobIds) queue.push(...(await settledDocuments(deps, id)));
    while (pending.size > 0 && !opts.signal?.aborted) {
      while (queue.length > 0) {
        const e = queue.shift()!;
        if (!pending.has(e.job_id)) continue;
        if (e.type === "document") {
          if (documentsSeen.has(e.document.id)) continue;
          documentsSeen.add(e.document.id);
        }
        yield await withUsageRecord(deps, e);
        if (isFinal(e)) pending.delete(e.job_id);
      }
      heard = false;
      for (const id of [...pending]) {
        const settled = await settledEvent(deps.sql, id);
        if (settled) {
          yield await withUsageRecord(deps, settled);
          pending.delete(id);
        }
      }
      if (pending.size === 0) break;
      if (queue.length > 0 || heard) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, opts.pollMs ?? 1000);
        const onAbort = () => done();
        opts.signal?.addEventListener("abort", onAbort, { once: true });
        function done() {
          clearTimeout(timer);
          opts.signal?.removeEventListener("abort", onAbort);
          wake = null;
          resolve();
        }
        wake = done;
      });
    }
  } finally {
    for (const u of unsubscribe) u();
    // A stream's end must not wait on a listening connection that may be down; a registration left behind hears nothing pending.
    unlisten().catch(() => undefined);
  }
}
