/**
 * POST /v2/courses/{id}/resume: a failed or interrupted course goes back to generating and a new
 * job writes only what is missing (chapters, then the study guide), then course.completed.
 */
import { type Clock, isoNow } from "../clock.ts";
import { forUpdate, type Sql, sql } from "../db/sql.ts";
import { reopenFailedDocuments } from "../documents/lookups.ts";
import { AppError } from "../errors.ts";
import { enqueueJob, latestCourseJob } from "../jobs/queue.ts";
import { courseDocumentIds } from "./course-documents.ts";
import { COURSE_JOB } from "./progress.ts";
import type { CourseOwner } from "./read.ts";

/** Resuming: the database and the clock. */
export interface ResumeDeps {
  sql: Sql;
  clock: Clock;
}

export interface ResumeResult {
  course_id: string;
  status: "resuming" | "completed";
  missing_chapters: number[];
  total_chapters: number;
  message: string;
  job_id: string | null;
}

export function resumeCourse(
  { sql: db, clock }: ResumeDeps,
  owner: CourseOwner,
  courseId: string,
  requestId: string,
): Promise<ResumeResult> {
  return db.transaction(async (tx): Promise<ResumeResult> => {
    // The course row stays locked until the new job commits, so another resume of it (on any
    // node) waits here and then sees that job: one generation run per course at a time.
    const course = await tx.get<{
      id: string;
      status: string;
      num_chapters: number;
      tenant_id: string;
      user_id: string;
    }>(
      sql`SELECT id, status, num_chapters, tenant_id, user_id FROM courses
           WHERE id = ${courseId} AND tenant_id = ${owner.tenantId} AND user_id = ${owner.userId}${forUpdate}`,
    );
    if (!course) throw new AppError("NOT_FOUND", "Course not found");
    // Only a generation run blocks a resume; podcast jobs of the course run beside it.
    const job = await latestCourseJob(tx, courseId, COURSE_JOB);
    if (job && (job.status === "queued" || job.status === "running")) {
      throw new AppError("COURSE_GENERATING", "The course is generating; resume it once its job has finished", {
        job_id: job.id,
        job_status: job.status,
      });
    }
    const chapters = await tx.all<{ order_index: number; status: string }>(
      sql`SELECT order_index, status FROM chapters WHERE course_id = ${courseId} ORDER BY order_index`,
    );
    const total = chapters.length > 0 ? chapters.length : course.num_chapters;
    if (course.status === "completed") {
      return {
        course_id: courseId,
        status: "completed",
        missing_chapters: [],
        total_chapters: total,
        message: "The course is complete; nothing to resume",
        job_id: null,
      };
    }
    const missing =
      chapters.length > 0
        ? chapters.filter((c) => c.status !== "completed").map((c) => c.order_index)
        : Array.from({ length: total }, (_, i) => i);
    const now = isoNow(clock);
    await tx.run(
      sql`UPDATE courses SET status = 'generating', error = NULL, updated_at = ${now} WHERE id = ${courseId}`,
    );
    if (chapters.length === 0) {
      // The outline was never made, so sources that failed get another try (a page may be back).
      await reopenFailedDocuments(tx, await courseDocumentIds(tx, courseId));
    }
    const next = await enqueueJob(
      { sql: tx, clock },
      {
        type: COURSE_JOB,
        tenantId: course.tenant_id,
        userId: course.user_id,
        courseId,
        requestId,
        maxAttempts: 1,
        payload: { resume: true },
      },
    );
    const what =
      missing.length > 0 ? `${missing.length} missing chapter${missing.length === 1 ? "" : "s"}` : "the study guide";
    return {
      course_id: courseId,
      status: "resuming",
      missing_chapters: missing,
      total_chapters: total,
      message: `Resuming: generating ${what} in the background; poll GET /v2/courses/${courseId}/progress`,
      job_id: next.id,
    };
  });
}
