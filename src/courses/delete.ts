/**
 * DELETE /v2/courses/{course_id}, the domain part. The course goes with everything made from it:
 * chapters, quizzes, chapter sources, the chapters' chunks in the retrieval index, materials,
 * podcast episodes and their audio, and every learner's attempts, reviews and reads (the tables'
 * foreign keys cascade). The documents it was built from stay: they are the learner's indexed
 * documents and answer document queries of their own. A course with a queued or running job (its
 * generation or a podcast episode) is not deleted under that job: 409, delete once it has finished.
 */
import type { Database } from "bun:sqlite";
import { AppError } from "../errors.ts";
import { deleteBlob } from "../media/blob-store.ts";
import { type CourseOwner, loadOwnedCourse } from "./read.ts";

export async function deleteCourse(
  svc: { sqlite: Database; cfg: { dataDir: string } },
  owner: CourseOwner,
  courseId: string,
): Promise<void> {
  const blobs = svc.sqlite.transaction((): string[] => {
    loadOwnedCourse(svc.sqlite, owner, courseId);
    const job = svc.sqlite
      .query<{ id: string; type: string; status: string }, [string]>(
        "SELECT id, type, status FROM jobs WHERE course_id = ? AND status IN ('queued', 'running') LIMIT 1",
      )
      .get(courseId);
    if (job) {
      throw new AppError("COURSE_BUSY", "The course has a job in progress; delete it once the job has finished", {
        job_id: job.id,
        job_type: job.type,
        job_status: job.status,
      });
    }
    const keys = svc.sqlite
      .query<{ blob_key: string }, [string]>(
        "SELECT blob_key FROM podcast_episodes WHERE course_id = ? AND blob_key IS NOT NULL",
      )
      .all(courseId)
      .map((r) => r.blob_key);
    // Chunks first, by their own statement: their full-text and vector rows go with them (triggers).
    svc.sqlite.run("DELETE FROM retrieval_chunks WHERE course_id = ?", [courseId]);
    svc.sqlite.run("DELETE FROM courses WHERE id = ?", [courseId]);
    return keys;
  })();
  // Audio goes after the rows: a crash in between leaves an unreferenced file, never a row without its file.
  for (const key of blobs) await deleteBlob(svc.cfg, key);
}
