/** The state a course must be in before study materials are built from it. */
import type { CourseHead } from "../courses/read.ts";
import { AppError } from "../errors.ts";

/**
 * Notes, flashcards and exams cover the whole course, so they wait for it: 409 while it is
 * generating, and 409 for a failed course until a resume completes it.
 */
export function assertCompleted(course: CourseHead): void {
  if (course.status === "completed") return;
  const message =
    course.status === "generating"
      ? "The course is still generating; study materials are available once it completes"
      : "The course failed before completing; resume it (POST /v2/courses/{course_id}/resume) to build study materials";
  throw new AppError(course.status === "generating" ? "COURSE_GENERATING" : "COURSE_NOT_COMPLETED", message, {
    course_status: course.status,
  });
}
