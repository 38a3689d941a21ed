/**
 * The study guide: built once when a course completes, from its finished chapters, by the model
 * that generated the course. It is never regenerated; a second build keeps the first guide.
 */
import type { Database } from "bun:sqlite";
import { type CourseHead, courseHead } from "../courses/read.ts";
import { AppError } from "../errors.ts";
import { type StudyGuide, type UsageMeter, writeStudyGuide } from "../llm/artefacts.ts";
import { nowIso } from "../util.ts";
import { asUnavailable, type MaterialDeps } from "./engine.ts";
import { materialSource } from "./material-source.ts";
import { singleFlight } from "./single-flight.ts";

export interface StoredStudyGuide {
  guide: StudyGuide;
  engine: string;
  model: string;
  created_at: string;
}

export function readStudyGuide(sqlite: Database, courseId: string): StoredStudyGuide | null {
  const row = sqlite
    .query<{ guide: string; engine: string; model: string; created_at: string }, [string]>(
      "SELECT guide, engine, model, created_at FROM study_guides WHERE course_id = ?",
    )
    .get(courseId);
  return row
    ? { guide: JSON.parse(row.guide) as StudyGuide, engine: row.engine, model: row.model, created_at: row.created_at }
    : null;
}

export async function buildStudyGuide(
  svc: MaterialDeps,
  courseId: string,
  opts: { meter?: UsageMeter; signal?: AbortSignal } = {},
): Promise<void> {
  if (readStudyGuide(svc.sqlite, courseId)) return;
  await singleFlight(`study-guide:${courseId}`, async () => {
    if (readStudyGuide(svc.sqlite, courseId)) return;
    opts.signal?.throwIfAborted();
    const course = courseHead(svc.sqlite, courseId);
    // The course's own model (absent for courses made before models were recorded: the default).
    const { maker, source } = materialSource(svc, course, course.model);
    if (source.chapters.length === 0)
      throw new AppError("COURSE_EMPTY", "The course has no completed chapters to build a study guide from");
    const guide = await writeStudyGuide(svc.llm, { ...source, meter: opts.meter });
    opts.signal?.throwIfAborted();
    svc.sqlite.run(
      "INSERT OR IGNORE INTO study_guides (course_id, guide, engine, model, created_at) VALUES (?, ?, ?, ?, ?)",
      [courseId, JSON.stringify(guide), maker.engine, maker.model, nowIso()],
    );
  });
}

export interface StudyGuideView {
  study_guide: StudyGuide | null;
  message?: string;
  engine?: string;
  model?: string;
  created_at?: string;
}

/**
 * What GET study-guide shows: the stored guide; null with a message while the course is generating
 * or after it failed. A completed course without one (its completion predates study guides, or
 * the build was interrupted) gets it built now, once, like at completion.
 */
export async function viewStudyGuide(svc: MaterialDeps, course: CourseHead): Promise<StudyGuideView> {
  const stored = readStudyGuide(svc.sqlite, course.id);
  if (stored)
    return { study_guide: stored.guide, engine: stored.engine, model: stored.model, created_at: stored.created_at };
  if (course.status === "generating") {
    return {
      study_guide: null,
      message: "The course is still generating; its study guide is built when every chapter is done.",
    };
  }
  if (course.status === "failed") {
    return {
      study_guide: null,
      message:
        "The course failed before completing; resume it (POST /v2/courses/{course_id}/resume) and the study guide is built when it completes.",
    };
  }
  await buildStudyGuide(svc, course.id).catch((err: unknown) => {
    throw asUnavailable(err);
  });
  const built = readStudyGuide(svc.sqlite, course.id)!;
  return { study_guide: built.guide, engine: built.engine, model: built.model, created_at: built.created_at };
}
