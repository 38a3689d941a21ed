/**
 * Sync mode: waits for the jobs of a request and shapes the result, or raises the structured
 * failure reason with the status the API gives it (500 for model failures).
 */
import type { Database } from "bun:sqlite";
import { monthlyCount, OPERATIONS } from "../billing/index.ts";
import { AppError, type FailureReason } from "../errors.ts";
import type { Services } from "../services.ts";
import type { AuthContext } from "../tenants/keys.ts";
import { microsToUsd } from "../util.ts";
import type { ChapterRef, CourseUsage } from "./events.ts";
import { followJobs } from "./follow.ts";

export interface SyncCourse {
  id: string;
  title: string;
  chapters: ChapterRef[];
}

export interface SyncUsage {
  model: string | null;
  engine: string | null;
  model_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  seconds: number;
  billed_usd: number;
  courses_used_this_month: number;
  courses_cap: number | null;
}

/** HTTP status of a failed generation: the sources' fault, no model, or the model's failure. */
export function failureStatus(reason: FailureReason): number {
  if (reason.code === "SOURCES_FAILED" || reason.code === "TOPIC_NOT_COVERED") return 422;
  if (reason.code === "MODEL_NOT_CONFIGURED") return 503;
  return 500;
}

function billedMicros(sqlite: Database, courseIds: string[]): number {
  return sqlite
    .query<{ n: number }, [string]>(
      "SELECT coalesce(sum(amount_micros), 0) AS n FROM usage_events WHERE ref_id IN (SELECT value FROM json_each(?))",
    )
    .get(JSON.stringify(courseIds))!.n;
}

export interface SyncContext {
  svc: Services;
  auth: AuthContext;
  startedAt: number;
  signal?: AbortSignal;
}

export async function waitForCourses(ctx: SyncContext, jobIds: string[]): Promise<{ courses: SyncCourse[]; usage: SyncUsage }> {
  const courses = new Map<string, SyncCourse>();
  const usages: CourseUsage[] = [];
  const failures: { job_id: string; course_id: string; error: FailureReason }[] = [];
  for await (const e of followJobs(ctx.svc.sqlite, jobIds, { signal: ctx.signal })) {
    if (e.type === "completed") {
      courses.set(e.job_id, { id: e.course_id, title: e.title, chapters: e.chapters });
      usages.push(e.usage);
    } else if (e.type === "failed") {
      failures.push({ job_id: e.job_id, course_id: e.course_id, error: e.error });
    }
  }
  const first = failures[0];
  if (first) {
    throw new AppError(failureStatus(first.error), first.error.code, first.error.message, {
      job_id: first.job_id,
      course_id: first.course_id,
      failed: failures,
      completed_course_ids: [...courses.values()].map((c) => c.id),
    });
  }
  const ordered = jobIds.map((id) => courses.get(id)).filter((c): c is SyncCourse => c !== undefined);
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
      billed_usd: microsToUsd(billedMicros(ctx.svc.sqlite, ordered.map((c) => c.id))),
      courses_used_this_month: monthlyCount(ctx.svc.db, ctx.auth.tenantId, ctx.auth.keyEnv, OPERATIONS.course),
      courses_cap: ctx.auth.keyEnv === "test" ? ctx.svc.cfg.testKeyCoursesPerMonth : null,
    },
  };
}
