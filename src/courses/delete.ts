/**
 * DELETE /v2/courses/{course_id}, the domain part. The course goes with everything made from it:
 * chapters, quizzes, chapter sources, the chapters' chunks in the retrieval index, materials,
 * podcast episodes and their audio, and every learner's attempts, reviews and reads (the tables'
 * foreign keys cascade). The documents it was built from stay: they are the learner's indexed
 * documents and answer document queries of their own. A course with a queued or running job (its
 * generation or a podcast episode) is not deleted under that job: 409, delete once it has finished.
 */
import { type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { activeCourseJob } from "../jobs/queue.ts";
import { deleteBlob } from "../media/blob-store.ts";
import { deleteCourseChunks } from "../retrieval/index.ts";
import { type CourseOwner, loadOwnedCourse, lockCourse } from "./read.ts";

export async function deleteCourse(
  svc: { db: Sql; cfg: { blobDir: string } },
  owner: CourseOwner,
  courseId: string,
  /** The blobs of what was made from the course (podcast audio): podcasts sit above courses and own them. */
  madeBlobKeys: (db: Sql, courseId: string) => Promise<string[]>,
): Promise<void> {
  const blobs = await svc.db.transaction(async (tx) => {
    await loadOwnedCourse(tx, owner, courseId);
    // The course row locked as resume locks it: a resume at once either commits its job before the
    // check below (and the delete is refused) or finds no course, never a job left without one.
    await lockCourse(tx, courseId);
    const job = await activeCourseJob(tx, courseId);
    if (job) {
      throw new AppError("COURSE_BUSY", "The course has a job in progress; delete it once the job has finished", {
        job_id: job.id,
        job_type: job.type,
        job_status: job.status,
      });
    }
    const keys = await madeBlobKeys(tx, courseId);
    // Chunks first, by their own statement: their full-text and vector rows go with them (triggers).
    await deleteCourseChunks(tx, courseId);
    await tx.run(sql`DELETE FROM courses WHERE id = ${courseId}`);
    return keys;
  });
  // Audio goes after the rows: a crash in between leaves an unreferenced file, never a row without its file.
  for (const key of blobs) await deleteBlob(svc.cfg, key);
}
