/**
 * Sync mode: waits for the jobs of a request and shapes the result, or raises the structured
 * failure reason with the status the API gives it (500 for model failures).
 */
import type { Database } from "bun:sqlite";
import { billedMicros, monthlyCount, OPERATIONS } from "../billing/index.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { type FailureReason, generationFailure } from "../errors.ts";
import type { EventBus } from "../events/bus.ts";
import type { AuthContext } from "../tenants/keys.ts";
import { microsToUsd } from "../util.ts";
import type { ChapterRef, UsageRecord } from "./events.ts";
import { followJobs } from "./follow.ts";

export interface SyncCourse {
  id: string;
  title: string;
  chapters: ChapterRef[];
}

export interface SyncContext {
  svc: { sqlite: Database; clock: Clock; events: EventBus; cfg: Pick<Config, "testKeyCoursesPerMonth"> };
  auth: AuthContext;
  startedAt: number;
  signal?: AbortSignal;
}

/**
 * Waits for a request's courses. One course's usage is its usage record (as in the stream's
 * `completed` event); several courses' is their sum over the request's time.
 */
export async function waitForCourses(
  ctx: SyncContext,
  jobIds: string[],
): Promise<{ courses: SyncCourse[]; usage: UsageRecord }> {
  const courses = new Map<string, SyncCourse>();
  const usages: UsageRecord[] = [];
  const failures: { job_id: string; course_id: string; error: FailureReason }[] = [];
  for await (const e of followJobs(ctx.svc, jobIds, { signal: ctx.signal })) {
    if (e.type === "completed") {
      courses.set(e.job_id, { id: e.course_id, title: e.title, chapters: e.chapters });
      usages.push(e.usage);
    } else if (e.type === "failed") {
      failures.push({ job_id: e.job_id, course_id: e.course_id, error: e.error });
    }
  }
  const first = failures[0];
  if (first) {
    throw generationFailure(first.error, {
      job_id: first.job_id,
      course_id: first.course_id,
      failed: failures,
      completed_course_ids: [...courses.values()].map((c) => c.id),
    });
  }
  const ordered = jobIds.map((id) => courses.get(id)).filter((c): c is SyncCourse => c !== undefined);
  if (usages.length === 1) return { courses: ordered, usage: usages[0]! };
  const last = usages.at(-1);
  return {
    courses: ordered,
    usage: {
      model: last?.model ?? null,
      engine: last?.engine ?? null,
      model_calls: usages.reduce((a, u) => a + u.model_calls, 0),
      prompt_tokens: usages.reduce((a, u) => a + u.prompt_tokens, 0),
      completion_tokens: usages.reduce((a, u) => a + u.completion_tokens, 0),
      seconds: Math.round(performance.now() - ctx.startedAt) / 1000,
      billed_usd: microsToUsd(
        billedMicros(
          ctx.svc.sqlite,
          ordered.map((c) => c.id),
        ),
      ),
      courses_used_this_month: monthlyCount(
        ctx.svc.sqlite,
        ctx.auth.tenantId,
        ctx.auth.keyEnv,
        OPERATIONS.course,
        ctx.svc.clock.now(),
      ),
      courses_cap: ctx.auth.keyEnv === "test" ? ctx.svc.cfg.testKeyCoursesPerMonth : null,
    },
  };
}
