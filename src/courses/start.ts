/**
 * The request side of generation: checks what can be checked at once (test-key cap, file formats,
 * a topic the extractive engine cannot serve), stores the uploads, and commits the course, its
 * source documents and its job in one transaction. The job does the slow work.
 */
import { extname } from "node:path";
import { addUsage, OPERATIONS, reserveTestCap, type TestCaps } from "../billing/index.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { type Sql, sql } from "../db/sql.ts";
import { createDocumentRecord, type SourceType } from "../documents/records.ts";
import { detectedKind, requestSources } from "../documents/sources.ts";
import { AppError } from "../errors.ts";
import { enqueueJob, type JobRow } from "../jobs/queue.ts";
import { resolveModelKey, usesExtractive } from "../llm/models.ts";
import type { Llm } from "../llm/types.ts";
import { deleteBlob, putBlob } from "../media/blob-store.ts";
import type { AuthContext } from "../tenants/keys.ts";
import type { User } from "../tenants/users.ts";
import { newId, nowIso, slugify } from "../util.ts";
import { linkCourseDocuments } from "./course-documents.ts";
import { type CourseThread, matchTopic } from "./in-thread.ts";
import { COURSE_JOB } from "./progress.ts";
import type { Organization } from "./store.ts";
import { refuseTopic } from "./topic-match.ts";
import { SEARCH_UNAVAILABLE_NOTE } from "./web-search.ts";

/**
 * Starting a course: the database (and its address, for matching a topic in the engine's thread),
 * the model that will write it, and the blob store for uploads.
 */
export interface StartDeps {
  sql: Sql;
  databaseAddress: string;
  engineThread: Pick<CourseThread, "matchTopic">;
  llm: Llm;
  clock: Clock;
  cfg: TestCaps & Pick<Config, "searxngUrl" | "dataDir" | "blobDir">;
}

export interface Requester {
  auth: AuthContext;
  user: User;
  requestId: string;
}

export interface GenerationOptions {
  numChapters: number;
  searchEnabled: boolean;
  /** Overrides the learner's saved learning goal. */
  learningGoal?: string | null;
  /** `model_key`: the model that writes the course and stays its model (422 when unknown); default the configured one. */
  modelKey?: string | null;
}

export interface UploadedFile {
  path: string;
  filename: string;
  size: number;
}

export interface SourceRequest extends GenerationOptions {
  topic?: string | null;
  organization: Organization;
  files: UploadedFile[];
  youtubeUrls: string[];
  webUrls: string[];
}

interface PendingSource {
  kind: SourceType;
  filename: string;
  url: string | null;
  blobKey: string | null;
  mimeType: string | null;
}

interface NewCourse {
  topic: string;
  title: string;
  sourceType: string;
  organization: Organization | null;
  sources: PendingSource[];
}

/** 422 unless the topic has 3-500 characters once trimmed. */
export function checkTopic(topic: string): string {
  const t = topic.trim();
  if (t.length < 3 || t.length > 500)
    throw new AppError("VALIDATION_ERROR", "topic must have 3 to 500 characters", { field: "topic", length: t.length });
  return t;
}

/** The course's engine and model: `model_key`'s when given (422 when the server offers no such model). */
async function courseModel(svc: StartDeps, opts: GenerationOptions): Promise<CourseModel> {
  const model = await resolveModelKey(svc.llm, opts.modelKey);
  return { model, engine: usesExtractive(svc.llm, model) ? "extractive" : svc.llm.engine };
}

interface CourseModel {
  engine: string;
  model: string;
}

/**
 * One course with its source documents' records, its usage event and its job, in `tx`, whose
 * caller has reserved the test cap (billing's lock).
 */
async function insertCourseWithJob(
  tx: Sql,
  svc: StartDeps,
  who: Requester,
  opts: GenerationOptions,
  maker: CourseModel,
  c: NewCourse,
): Promise<JobRow> {
  const now = nowIso();
  const courseId = newId();
  await tx.run(
    sql`INSERT INTO courses (id, tenant_id, user_id, title, topic, slug, source_type, status, organization, learning_goal,
                             search_enabled, search_note, num_chapters, engine, model, created_at, updated_at)
        VALUES (${courseId}, ${who.auth.tenantId}, ${who.user.id}, ${c.title}, ${c.topic}, ${slugify(c.title)},
                ${c.sourceType}, 'generating', ${c.organization}, ${opts.learningGoal ?? who.user.learningGoal ?? null},
                ${opts.searchEnabled ? 1 : 0}, ${opts.searchEnabled && !svc.cfg.searxngUrl ? SEARCH_UNAVAILABLE_NOTE : null},
                ${opts.numChapters}, ${maker.engine}, ${maker.model}, ${now}, ${now})`,
  );
  const documentIds: string[] = [];
  for (const s of c.sources)
    documentIds.push(
      await createDocumentRecord(
        tx,
        { tenantId: who.auth.tenantId, userId: who.user.id },
        { filename: s.filename, sourceType: s.kind, sourceUrl: s.url, blobKey: s.blobKey, mimeType: s.mimeType },
      ),
    );
  await linkCourseDocuments(tx, courseId, documentIds);
  await addUsage(tx, {
    tenantId: who.auth.tenantId,
    userId: who.user.id,
    apiKeyId: who.auth.keyId,
    keyEnv: who.auth.keyEnv,
    operation: OPERATIONS.course,
    refId: courseId,
  });
  // One attempt: model failures are retried chapter by chapter inside the job, and a failed course
  // is resumed on request; a crash counts a stall (JOB_MAX_STALLS) and the next start runs the job again.
  return enqueueJob(
    { sql: tx, clock: svc.clock },
    {
      type: COURSE_JOB,
      tenantId: who.auth.tenantId,
      userId: who.user.id,
      courseId,
      requestId: who.requestId,
      maxAttempts: 1,
    },
  );
}

/**
 * The request's courses in one transaction: the test cap reserved for all of them under its lock
 * (across nodes on PostgreSQL), then each course with its job; any failure leaves none of them.
 */
function insertCoursesWithJobs(
  svc: StartDeps,
  who: Requester,
  opts: GenerationOptions,
  maker: CourseModel,
  courses: NewCourse[],
): Promise<JobRow[]> {
  return svc.sql.transaction(async (tx) => {
    await reserveTestCap(tx, "course", svc.cfg, svc.clock.now(), who.auth, courses.length);
    const jobs: JobRow[] = [];
    for (const c of courses) jobs.push(await insertCourseWithJob(tx, svc, who, opts, maker, c));
    return jobs;
  });
}

/** POST /v2/courses/generate: one topic course, queued. */
export async function startTopicCourse(
  svc: StartDeps,
  who: Requester,
  req: GenerationOptions & { topic: string },
): Promise<JobRow> {
  const topic = checkTopic(req.topic);
  const maker = await courseModel(svc, req);
  if (maker.engine === "extractive") {
    const match = await matchTopic(svc, { tenantId: who.auth.tenantId, userId: who.user.id }, topic);
    if (match.passages.length === 0) throw refuseTopic(topic, match);
  }
  const [job] = await insertCoursesWithJobs(svc, who, req, maker, [
    { topic, title: topic, sourceType: "topic", organization: null, sources: [] },
  ]);
  return job!;
}

function sourceTypeOf(sources: PendingSource[]): string {
  const kinds = new Set(sources.map((s) => s.kind));
  if (kinds.size > 1) return "mixed";
  return kinds.has("file") ? "files" : kinds.has("youtube") ? "youtube" : "web";
}

/**
 * The request's sources by the one rule of documents/sources.ts: an unsupported file type is 415
 * before anything is stored; every other file is kept (even an empty one), so the job's ingestion
 * reports what is wrong with it as that source's failure, as process and extract do.
 */
async function storeSources(svc: StartDeps, req: SourceRequest): Promise<PendingSource[]> {
  const sources = await requestSources(req);
  const stored: PendingSource[] = [];
  try {
    for (const s of sources) {
      if (s.type !== "file") {
        stored.push({ kind: s.type, filename: s.url, url: s.url, blobKey: null, mimeType: null });
        continue;
      }
      const kind = detectedKind(s);
      const { key } = await putBlob(svc.cfg, s.path, { ext: kind?.kind ?? extname(s.filename).slice(1) });
      stored.push({ kind: "file", filename: s.filename, url: null, blobKey: key, mimeType: kind?.mimeType ?? null });
    }
  } catch (err) {
    await discardBlobs(svc, stored);
    throw err;
  }
  return stored;
}

async function discardBlobs(svc: StartDeps, sources: PendingSource[]): Promise<void> {
  await Promise.all(sources.filter((s) => s.blobKey).map((s) => deleteBlob(svc.cfg, s.blobKey!)));
}

/**
 * POST /v2/courses/generate-from-files: one course of all the sources, or with `separate_courses`
 * one course per source. Each course counts toward the test key's monthly cap; the whole request
 * is refused when they do not all fit.
 */
export async function startSourceCourses(svc: StartDeps, who: Requester, req: SourceRequest): Promise<JobRow[]> {
  const topic = req.topic == null || req.topic === "" ? null : checkTopic(req.topic);
  if (req.files.length + req.youtubeUrls.length + req.webUrls.length === 0) {
    throw new AppError("VALIDATION_ERROR", "Give at least one source: files, youtube_urls or web_urls");
  }
  const maker = await courseModel(svc, req);
  const sources = await storeSources(svc, req);
  const groups = req.organization === "separate_courses" ? sources.map((s) => [s]) : [sources];
  try {
    return await insertCoursesWithJobs(
      svc,
      who,
      req,
      maker,
      groups.map((group) => ({
        topic: topic ?? "",
        title: topic ?? (group.length === 1 ? group[0]!.filename : `Course from ${group.length} sources`),
        sourceType: sourceTypeOf(group),
        organization: req.organization,
        sources: group,
      })),
    );
  } catch (err) {
    await discardBlobs(svc, sources);
    throw err;
  }
}
