/**
 * Progress of a course and the Job resource, both computed from the committed rows so they are the
 * same in every process and after a restart.
 */
import { Type } from "@sinclair/typebox";
import { type Sql, sql } from "../db/sql.ts";
import { AppError, type FailureReason } from "../errors.ts";
import { jobType } from "../jobs/definition.ts";
import { getJob, type JobRow, latestCourseJob } from "../jobs/queue.ts";
import type { CourseOwner } from "./read.ts";

/** The job that generates (or, with `resume`, continues) the course named by the job's course_id. */
export const COURSE_JOB = jobType(
  "course.generate",
  Type.Object({ resume: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
);

interface ChapterProgressRow {
  order_index: number;
  title: string;
  status: "pending" | "running" | "completed";
  completed_at: string | null;
}

interface CourseProgressRow {
  id: string;
  status: "generating" | "completed" | "failed";
  num_chapters: number;
  error: string | null;
}

export interface ChapterCounts {
  expected: number;
  completed: number;
}

/**
 * The three progress rules: the ratio of committed chapters, capped at 99 until the course is
 * committed as completed (every chapter and the study guide), and 100 only then.
 */
export function progressPct(courseStatus: string, counts: ChapterCounts): number {
  if (courseStatus === "completed") return 100;
  if (counts.expected === 0) return 0;
  return Math.min(99, Math.floor((counts.completed / counts.expected) * 100));
}

export async function chapterCounts(db: Sql, courseId: string, plannedChapters: number): Promise<ChapterCounts> {
  const row = (await db.get<{ total: number; done: number | null }>(
    sql`SELECT CAST(count(*) AS INTEGER) AS total,
               CAST(sum(CASE WHEN status = 'completed' THEN 1 ELSE 0 END) AS INTEGER) AS done
          FROM chapters WHERE course_id = ${courseId}`,
  ))!;
  // Before the outline exists, the requested number of chapters is what is expected.
  return { expected: row.total > 0 ? row.total : plannedChapters, completed: row.done ?? 0 };
}

const parseReason = (s: string | null): FailureReason | null => (s ? (JSON.parse(s) as FailureReason) : null);

/** GET /v2/courses/{id}/progress: 404 unless the caller owns the course. */
export async function courseProgress(db: Sql, owner: CourseOwner, courseId: string) {
  const course = await db.get<CourseProgressRow>(
    sql`SELECT id, status, num_chapters, error FROM courses
         WHERE id = ${courseId} AND tenant_id = ${owner.tenantId} AND user_id = ${owner.userId}`,
  );
  if (!course) throw new AppError("NOT_FOUND", "Course not found");
  const chapters = await db.all<ChapterProgressRow>(
    sql`SELECT order_index, title, status, completed_at FROM chapters WHERE course_id = ${courseId} ORDER BY order_index`,
  );
  const counts = await chapterCounts(db, courseId, course.num_chapters);
  // The course's own generation run: podcast jobs of the course say nothing about its generation.
  const job = await latestCourseJob(db, courseId, COURSE_JOB);
  return {
    course_id: course.id,
    course_status: course.status,
    job_id: job?.id ?? null,
    job_status: job?.status ?? null,
    progress_pct: progressPct(course.status, counts),
    expected_chapters: counts.expected,
    completed_chapters: counts.completed,
    chapters: chapters.map((c) => ({
      order: c.order_index,
      title: c.title,
      status: c.status,
      completed_at: c.completed_at,
    })),
    error: course.status === "failed" ? (parseReason(course.error) ?? parseReason(job?.error ?? null)) : null,
  };
}

function linksOf(job: JobRow): Record<string, string> {
  const links: Record<string, string> = { self: `/v2/jobs/${job.id}` };
  if (job.course_id) {
    links.progress = `/v2/courses/${job.course_id}/progress`;
    links.course = `/v2/courses/${job.course_id}`;
  }
  return links;
}

/** The Job resource returned by async generation and GET /v2/jobs/{id}. */
export async function jobResource(db: Sql, job: JobRow) {
  const course = job.course_id
    ? await db.get<CourseProgressRow>(
        sql`SELECT id, status, num_chapters, error FROM courses WHERE id = ${job.course_id}`,
      )
    : null;
  const counts = course ? await chapterCounts(db, course.id, course.num_chapters) : { expected: 0, completed: 0 };
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    course_id: job.course_id,
    course_status: course?.status ?? null,
    // A failed job stays below 100 even when a later resume completed its course.
    progress_pct: course
      ? progressPct(job.status === "failed" ? "failed" : course.status, counts)
      : job.status === "completed"
        ? 100
        : 0,
    expected_chapters: counts.expected,
    completed_chapters: counts.completed,
    attempts: job.attempts,
    error: parseReason(job.error && job.status === "failed" ? job.error : null),
    created_at: job.created_at,
    updated_at: job.updated_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    links: linksOf(job),
  };
}

export type JobResource = Awaited<ReturnType<typeof jobResource>>;

/** A job for GET /v2/jobs/{id}: 404 unless the caller's learner started it, like the course endpoints. */
export async function ownedJob(db: Sql, owner: CourseOwner, jobId: string): Promise<JobRow> {
  const job = await getJob(db, jobId);
  if (!job || job.tenant_id !== owner.tenantId || job.user_id !== owner.userId)
    throw new AppError("NOT_FOUND", "Job not found");
  return job;
}
