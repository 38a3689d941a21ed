/**
 * POST /v2/courses/{id}/resume: a failed or interrupted course goes back to generating and a new
 * job writes only what is missing (chapters, then the study guide), then course.completed.
 */
import { isoNow } from "../clock.ts";
import { reopenFailedDocumentsSync } from "../documents/lookups.ts";
import { AppError } from "../errors.ts";
import { enqueueJobSync, latestCourseJob, type QueueDeps } from "../jobs/queue.ts";
import { courseDocumentIds } from "./course-documents.ts";
import { COURSE_JOB } from "./progress.ts";
import type { CourseOwner } from "./read.ts";

export interface ResumeResult {
  course_id: string;
  status: "resuming" | "completed";
  missing_chapters: number[];
  total_chapters: number;
  message: string;
  job_id: string | null;
}

export function resumeCourse(
  { sqlite, clock }: QueueDeps,
  owner: CourseOwner,
  courseId: string,
  requestId: string,
): ResumeResult {
  // One synchronous transaction: the check for a live job and the new job cannot interleave with
  // another resume of the same course.
  return sqlite.transaction((): ResumeResult => {
    const course = sqlite
      .query<
        { id: string; status: string; num_chapters: number; tenant_id: string; user_id: string },
        [string, string, string]
      >(
        "SELECT id, status, num_chapters, tenant_id, user_id FROM courses WHERE id = ? AND tenant_id = ? AND user_id = ?",
      )
      .get(courseId, owner.tenantId, owner.userId);
    if (!course) throw new AppError("NOT_FOUND", "Course not found");
    // Only a generation run blocks a resume; podcast jobs of the course run beside it.
    const job = latestCourseJob(sqlite, courseId, COURSE_JOB);
    if (job && (job.status === "queued" || job.status === "running")) {
      throw new AppError("COURSE_GENERATING", "The course is generating; resume it once its job has finished", {
        job_id: job.id,
        job_status: job.status,
      });
    }
    const chapters = sqlite
      .query<{ order_index: number; status: string }, [string]>(
        "SELECT order_index, status FROM chapters WHERE course_id = ? ORDER BY order_index",
      )
      .all(courseId);
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
    sqlite.run("UPDATE courses SET status = 'generating', error = NULL, updated_at = ? WHERE id = ?", [now, courseId]);
    if (chapters.length === 0) {
      // The outline was never made, so sources that failed get another try (a page may be back).
      reopenFailedDocumentsSync(sqlite, courseDocumentIds(sqlite, courseId));
    }
    const next = enqueueJobSync(
      { sqlite, clock },
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
  })();
}
