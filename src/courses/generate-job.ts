import pLimit from "p-limit";
import { type Clock, isoNow } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Sql } from "../db/sql.ts";
import type { IngestDeps } from "../documents/ingest.ts";
import { AppError, type FailureReason } from "../errors.ts";
import { defineJob, type JobContext } from "../jobs/definition.ts";
import { INTERRUPTED, type JobRow } from "../jobs/queue.ts";
import { EXTRACTIVE_MODEL, UsageMeter } from "../llm/artefacts.ts";
import { chapterIndexJob, type IndexSettings } from "../retrieval/index.ts";
import { jobDeliveryQueue } from "../webhooks/delivery-queue.ts";
import { type ChapterScope, writeCourseChapter } from "./chapter-writer.ts";
import { linkCourseDocuments } from "./course-documents.ts";
import type { WritingDeps } from "./deps.ts";
import { type ChapterRef, type CourseUsage, publish, relayedSoFar } from "./events.ts";
import { matchTopic } from "./in-thread.ts";
import { type CourseDocumentsDeps, courseDocuments, documentEvent, ingestCourseSources } from "./ingest-sources.ts";
import { withModelRetries } from "./model-retry.ts";
import { planSourceCourse, planTopicCourse } from "./plan.ts";
import { COURSE_JOB, chapterCounts, progressPct } from "./progress.ts";
import { refuseOversizedSources } from "./source-size.ts";
import type { CoursePlan } from "./store.ts";
import {
  type ChapterRow,
  type CourseRow,
  chaptersOf,
  commitChapter,
  commitOutline,
  completeCourse,
  dropRepeatedQuizQuestions,
  failCourse,
  loadCourse,
  markChapterRunning,
  outlineOf,
  type PlannedChapter,
  resetRunningChapters,
} from "./store.ts";
import { refuseTopic } from "./topic-match.ts";

/** Writing chapters: the model, retrieval, web search, and how many chapters at once. */
type ChapterDeps = WritingDeps & {
  sql: Sql;
  cfg: Pick<Config, "chapterConcurrency" | "topicMatchMinScore" | "courseMaxSourceWords"> & IndexSettings;
};

/** The whole job: ingesting the sources, then planning and writing. */
type CourseJobDeps = IngestDeps & ChapterDeps & { clock: Clock };

/** The maker of a chapter the built-in engine wrote in the model's place (LLM_FALLBACK). */
const EXTRACTIVE_MAKER = { engine: "extractive", model: EXTRACTIVE_MODEL };

function usageOf(meter: UsageMeter): CourseUsage {
  return {
    model: meter.model,
    engine: meter.engine,
    model_calls: meter.calls,
    prompt_tokens: meter.promptTokens,
    completion_tokens: meter.completionTokens,
  };
}

const refs = (chapters: ChapterRow[]): ChapterRef[] =>
  chapters.map((c) => ({ order_index: c.order_index, title: c.title }));

async function publishProgress(db: Sql, jobId: string, course: CourseRow): Promise<void> {
  const counts = await chapterCounts(db, course.id, course.num_chapters);
  publish({
    type: "progress",
    job_id: jobId,
    course_id: course.id,
    progress_pct: progressPct("generating", counts),
    completed_chapters: counts.completed,
    expected_chapters: counts.expected,
  });
}

/** A chapter's event: running as its writing starts (no completion time), completed once committed. */
function publishChapter(
  jobId: string,
  courseId: string,
  chapter: { order_index: number; title: string },
  completedAt: string | null,
): void {
  publish({
    type: "chapter",
    job_id: jobId,
    course_id: courseId,
    order_index: chapter.order_index,
    title: chapter.title,
    status: completedAt ? "completed" : "running",
    completed_at: completedAt,
  });
}

/** Sources of a files/URL course; fails the course when none could be ingested. */
async function ingest(
  svc: IngestDeps & CourseDocumentsDeps,
  job: JobRow,
  course: CourseRow,
  signal: AbortSignal,
): Promise<string[]> {
  const docs = await ingestCourseSources(svc, course, {
    signal,
    onDocument: (d) => publish(documentEvent(job.id, course.id, d)),
  });
  const ready = docs.filter((d) => d.status === "ready");
  if (ready.length === 0 && !signal.aborted) {
    throw new AppError(
      "SOURCES_FAILED",
      `None of the course's sources could be ingested: ${docs.map((d) => `${d.filename}: ${d.error ?? "not processed"}`).join("; ")}`,
      {
        documents: docs.map((d) => ({ id: d.id, filename: d.filename, error: d.error })),
      },
    );
  }
  return ready.map((d) => d.id);
}

/** The outline's chapters, planning it first when this is the course's first run. */
async function ensureOutline(
  svc: ChapterDeps,
  job: JobRow,
  course: CourseRow,
  readyDocs: string[],
  meter: UsageMeter,
): Promise<ChapterRow[]> {
  const db = svc.sql;
  const existing = await chaptersOf(db, course.id);
  if (existing.length > 0) return existing;
  let plan: CoursePlan;
  if (course.source_type === "topic") {
    const match = await matchTopic(svc, { tenantId: course.tenant_id, userId: course.user_id }, course.topic);
    if (svc.llm.engine === "extractive" && match.passages.length === 0) throw refuseTopic(course.topic, match);
    // The documents the course drew on are linked to it, so course Q&A retrieves over them too.
    await linkCourseDocuments(db, course.id, match.documentIds);
    plan = await planTopicCourse({ svc, course, meter }, match.passages);
  } else {
    const docs = (await courseDocuments(svc, course.id)).filter((d) => readyDocs.includes(d.id));
    await refuseOversizedSources(
      svc.sql,
      docs.map((d) => d.id),
      svc.cfg.courseMaxSourceWords,
    );
    plan = await planSourceCourse({ svc, course, meter }, docs);
  }
  const chapters = await commitOutline(db, course, plan);
  publish({
    type: "outline",
    job_id: job.id,
    course_id: course.id,
    title: plan.title,
    description: plan.description,
    organization: plan.organization,
    chapters: refs(chapters),
  });
  return chapters;
}

async function scopeOf(
  svc: ChapterDeps,
  course: CourseRow,
  planned: PlannedChapter | undefined,
): Promise<ChapterScope> {
  const linked = (await courseDocuments(svc, course.id)).filter((d) => d.status === "ready").map((d) => d.id);
  if (course.source_type === "topic") {
    // A model writes from its own knowledge where the documents say little; the extractive engine
    // has only the documents, which already matched the topic as a whole.
    return { documentIds: linked, minScore: svc.llm.engine === "extractive" ? 0 : svc.cfg.topicMatchMinScore };
  }
  const own = planned?.source_document_ids;
  return { documentIds: own ? own.filter((id) => linked.includes(id)) : linked, minScore: 0 };
}

/**
 * Writes every chapter not committed yet, CHAPTER_CONCURRENCY at a time. On the first failure no
 * new chapter starts; those in flight still commit, then the failure is raised. Returns false when
 * stopped for shutdown before all were written.
 */
async function writeChapters(
  svc: ChapterDeps,
  job: JobRow,
  course: CourseRow,
  chapters: ChapterRow[],
  meter: UsageMeter,
  signal: AbortSignal,
): Promise<boolean> {
  const db = svc.sql;
  const planned = (await outlineOf(db, course.id))?.chapters ?? [];
  const outline = [...chapters].sort((a, b) => a.order_index - b.order_index).map((c) => c.title);
  const limit = pLimit(svc.cfg.chapterConcurrency);
  let failure: unknown = null;
  const maker = { engine: course.engine, model: course.model };
  await Promise.all(
    chapters
      .filter((c) => c.status !== "completed")
      .map((c) =>
        limit(async () => {
          if (failure || signal.aborted) return;
          const plan: PlannedChapter = planned[c.order_index] ?? {
            title: c.title,
            objectives: JSON.parse(c.objectives) as string[],
            source_document_ids: null,
          };
          await markChapterRunning(db, c.id);
          publishChapter(job.id, course.id, c, null);
          try {
            const written = await writeCourseChapter(
              svc,
              course,
              { ...plan, title: c.title },
              await scopeOf(svc, course, plan),
              meter,
              {
                outline,
                index: c.order_index,
              },
            );
            // Embedding a long chapter's chunks takes the built-in embedder a second: in the engine's thread.
            await svc.engineThread.indexChapter(
              chapterIndexJob(svc, {
                tenantId: course.tenant_id,
                userId: course.user_id,
                courseId: course.id,
                chapterId: c.id,
                title: c.title,
                markdown: written.draft.content,
              }),
            );
            const madeBy = written.generatedBy === "extractive" ? EXTRACTIVE_MAKER : maker;
            const completedAt = await commitChapter(db, c.id, written.draft, written.sources, madeBy);
            publishChapter(job.id, course.id, c, completedAt);
            await publishProgress(db, job.id, course);
          } catch (err) {
            // Queued chapters see this and return at once (clearQueue would leave their promises pending).
            failure ??= inChapter(err, c);
          }
        }),
      ),
  );
  if (failure) throw failure;
  return !signal.aborted;
}

/**
 * A chapter's failure names its chapter, wherever the reason is shown (progress, SSE, webhooks,
 * the console): "Chapter 3 ("Tides"): the model's reply…", and `details.chapter`.
 */
function inChapter(err: unknown, c: ChapterRow): unknown {
  if (!(err instanceof AppError)) return err;
  const chapter = { order_index: c.order_index, title: c.title };
  const details = err.details && typeof err.details === "object" ? { ...err.details, chapter } : { chapter };
  return new AppError(err.code, `Chapter ${c.order_index + 1} ("${c.title}"): ${err.message}`, details, err.headers);
}

/**
 * The study guide step, handed in by job-handlers.ts: study guides are materials, which sit above
 * courses, so the course job calls the step without importing it.
 */
export type StudyGuideStep = (courseId: string, opts: { meter: UsageMeter; signal: AbortSignal }) => Promise<void>;

async function generateCourse(
  svc: CourseJobDeps,
  studyGuide: StudyGuideStep,
  job: JobRow,
  ctx: JobContext,
): Promise<unknown> {
  const db = svc.sql;
  const course = job.course_id ? await loadCourse(db, job.course_id) : null;
  if (!course) throw new AppError("INTERNAL", "The course of this job no longer exists");
  // Resume re-queues a failed course as generating; anything else is already settled.
  if (course.status !== "generating") return { skipped: true, course_status: course.status };
  const meter = new UsageMeter();
  const started = performance.now();

  const readyDocs = course.source_type === "topic" ? [] : await ingest(svc, job, course, ctx.signal);
  if (ctx.signal.aborted) return INTERRUPTED;

  await resetRunningChapters(db, course.id);
  const chapters = await ensureOutline(svc, job, course, readyDocs, meter);
  if (ctx.signal.aborted) return INTERRUPTED;
  const planned = (await loadCourse(db, course.id))!;

  if (!(await writeChapters(svc, job, planned, chapters, meter, ctx.signal))) return INTERRUPTED;
  await dropRepeatedQuizQuestions(db, course.id);

  try {
    await withModelRetries(svc, { course_id: course.id, step: "study_guide" }, () =>
      studyGuide(course.id, { meter, signal: ctx.signal }),
    );
  } catch (err) {
    // Stopped for shutdown while the guide was being written: the next run builds it.
    if (ctx.signal.aborted) return INTERRUPTED;
    throw err;
  }
  // Followers on other nodes hear the chapters before the completion they read from the rows.
  await relayedSoFar();
  const done = await completeCourse(db, { queue: jobDeliveryQueue(svc.clock), clock: svc.clock }, planned, job.id);
  const usage = usageOf(meter);
  publish({
    type: "completed",
    job_id: job.id,
    course_id: course.id,
    title: done.title,
    chapters: refs(await chaptersOf(db, course.id)),
    usage,
  });
  return {
    course_id: course.id,
    completed_at: isoNow(svc.clock),
    seconds: Math.round(performance.now() - started) / 1000,
    usage,
  };
}

/** The course's generation (the payload's `resume` changes nothing: every run continues from what is committed). */
export const courseGenerationJob = defineJob(COURSE_JOB, (svc: CourseJobDeps & { studyGuide: StudyGuideStep }) => ({
  run: (job, _payload, ctx) => generateCourse(svc, svc.studyGuide, job, ctx),
  async onFailure(job: JobRow, reason: FailureReason, _payload, tx) {
    if (!job.course_id) return;
    await failCourse(tx, { queue: jobDeliveryQueue(svc.clock), clock: svc.clock }, job.course_id, job.id, reason);
    publish({ type: "failed", job_id: job.id, course_id: job.course_id, error: reason });
  },
}));
