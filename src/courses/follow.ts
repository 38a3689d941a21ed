/**
 * Following generation jobs from a request (sync and stream modes): the events the worker of this
 * process publishes, ending with one `completed` or `failed` per job. The database is checked
 * every `pollMs` as well, so a follower never hangs on an event it could not hear.
 */
import type { Database } from "bun:sqlite";
import type { FailureReason } from "../errors.ts";
import { getJob } from "../jobs/queue.ts";
import { type ChapterRef, type CourseUsage, type GenerationEvent, subscribe } from "./events.ts";

const NO_USAGE: CourseUsage = { model: null, engine: null, model_calls: 0, prompt_tokens: 0, completion_tokens: 0 };

export function chapterRefs(sqlite: Database, courseId: string): ChapterRef[] {
  return sqlite
    .query<ChapterRef, [string]>("SELECT order_index, title FROM chapters WHERE course_id = ? ORDER BY order_index")
    .all(courseId);
}

/** The final event of a job, read from the database; null while it is still going. */
export function settledEvent(sqlite: Database, jobId: string): GenerationEvent | null {
  const job = getJob(sqlite, jobId);
  if (!job?.course_id) return null;
  const course = sqlite
    .query<{ id: string; title: string; status: string; error: string | null }, [string]>("SELECT id, title, status, error FROM courses WHERE id = ?")
    .get(job.course_id);
  if (!course) return null;
  if (course.status === "completed") {
    const result = job.result ? (JSON.parse(job.result) as { usage?: CourseUsage }) : null;
    return { type: "completed", job_id: job.id, course_id: course.id, title: course.title, chapters: chapterRefs(sqlite, course.id), usage: result?.usage ?? NO_USAGE };
  }
  if (job.status === "failed" || (course.status === "failed" && job.status === "completed")) {
    const reason = JSON.parse(job.error ?? course.error ?? "null") as FailureReason | null;
    return { type: "failed", job_id: job.id, course_id: course.id, error: reason ?? { code: "INTERNAL", message: "Generation failed", request_id: job.request_id } };
  }
  return null;
}

const isFinal = (e: GenerationEvent) => e.type === "completed" || e.type === "failed";

export async function* followJobs(
  sqlite: Database,
  jobIds: string[],
  opts: { pollMs?: number; signal?: AbortSignal } = {},
): AsyncGenerator<GenerationEvent> {
  const queue: GenerationEvent[] = [];
  let wake: (() => void) | null = null;
  const listener = (e: GenerationEvent) => {
    queue.push(e);
    wake?.();
  };
  const unsubscribe = jobIds.map((id) => subscribe(id, listener));
  const pending = new Set(jobIds);
  try {
    while (pending.size > 0 && !opts.signal?.aborted) {
      while (queue.length > 0) {
        const e = queue.shift()!;
        if (!pending.has(e.job_id)) continue;
        yield e;
        if (isFinal(e)) pending.delete(e.job_id);
      }
      for (const id of [...pending]) {
        const settled = settledEvent(sqlite, id);
        if (settled) {
          yield settled;
          pending.delete(id);
        }
      }
      if (pending.size === 0) break;
      if (queue.length > 0) continue;
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
  }
}
