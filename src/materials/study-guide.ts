/**
 * The study guide: built once when a course completes, from its finished chapters, by the model
 * that generated the course. It is never regenerated; a second build keeps the first guide.
 */
import { type CourseHead, courseHead } from "../courses/read.ts";
import { type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { EXTRACTIVE_MODEL, type StudyGuide, type UsageMeter, writeStudyGuide } from "../llm/artefacts.ts";
import { type FallbackDeps, type GeneratedBy, generatedBy, withFallback } from "../llm/fallback.ts";
import { nowIso } from "../util.ts";
import { asUnavailable, type Maker, type MaterialDeps, makerOf } from "./engine.ts";
import { materialSource } from "./material-source.ts";
import { madeOnce, singleFlight } from "./single-flight.ts";

export interface StoredStudyGuide {
  guide: StudyGuide;
  engine: string;
  model: string;
  created_at: string;
}

export async function readStudyGuide(db: Sql, courseId: string): Promise<StoredStudyGuide | null> {
  const row = await db.get<{ guide: string; engine: string; model: string; created_at: string }>(
    sql`SELECT guide, engine, model, created_at FROM study_guides WHERE course_id = ${courseId}`,
  );
  return row
    ? { guide: JSON.parse(row.guide) as StudyGuide, engine: row.engine, model: row.model, created_at: row.created_at }
    : null;
}

/** Stores the course's guide unless it has one: the first guide stays. */
export async function storeStudyGuide(db: Sql, courseId: string, guide: StudyGuide, by: Maker): Promise<void> {
  await db.run(
    sql`INSERT INTO study_guides (course_id, guide, engine, model, created_at)
        VALUES (${courseId}, ${JSON.stringify(guide)}, ${by.engine}, ${by.model}, ${nowIso()})
        ON CONFLICT DO NOTHING`,
  );
}

export async function buildStudyGuide(
  svc: MaterialDeps,
  courseId: string,
  /** `fallback`: LLM_FALLBACK's settings, for the guide built as the course completes. */
  opts: { meter?: UsageMeter; signal?: AbortSignal; fallback?: FallbackDeps } = {},
): Promise<void> {
  const db = svc.sql;
  if (await readStudyGuide(db, courseId)) return;
  const key = `study-guide:${courseId}`;
  await singleFlight(key, () =>
    madeOnce(
      db,
      key,
      (tx) => readStudyGuide(tx, courseId),
      async (tx) => {
        opts.signal?.throwIfAborted();
        const course = await courseHead(tx, courseId);
        // The course's own model (absent for courses made before models were recorded: the default).
        const { maker, source } = await materialSource(svc, tx, course, course.model);
        if (source.chapters.length === 0)
          throw new AppError("COURSE_EMPTY", "The course has no completed chapters to build a study guide from");
        const write = (model: string) => writeStudyGuide(svc.llm, { ...source, model, meter: opts.meter });
        const { value: guide, generatedBy: by } = opts.fallback
          ? await withFallback(
              opts.fallback,
              { course_id: courseId, step: "study_guide" },
              () => write(source.model),
              () => write(EXTRACTIVE_MODEL),
            )
          : { value: await write(source.model), generatedBy: "model" };
        opts.signal?.throwIfAborted();
        const madeBy = by === "extractive" ? makerOf(svc.llm, EXTRACTIVE_MODEL) : maker;
        await storeStudyGuide(tx, courseId, guide, madeBy);
      },
    ),
  );
}

export interface StudyGuideView {
  study_guide: StudyGuide | null;
  message?: string;
  engine?: string;
  model?: string;
  generated_by?: GeneratedBy;
  created_at?: string;
}

const shown = (guide: StoredStudyGuide): StudyGuideView => ({
  study_guide: guide.guide,
  engine: guide.engine,
  model: guide.model,
  generated_by: generatedBy(guide.engine),
  created_at: guide.created_at,
});

/**
 * What GET study-guide shows: the stored guide; null with a message while the course is generating
 * or after it failed. A completed course without one (its completion predates study guides, or
 * the build was interrupted) gets it built now, once, like at completion.
 */
export async function viewStudyGuide(svc: MaterialDeps, course: CourseHead): Promise<StudyGuideView> {
  const db = svc.sql;
  const stored = await readStudyGuide(db, course.id);
  if (stored) return shown(stored);
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
  return shown((await readStudyGuide(db, course.id))!);
}
