/**
 * The writes of course generation, each one transaction: the outline with its pending chapters,
 * one chapter at a time, and the final state (completed, failed) together with its webhook event.
 * A crash between two of them loses nothing committed; the job picks up from the last one.
 */
import { type Clock, isoNow } from "../clock.ts";
import { type Query, type Sql, sql } from "../db/sql.ts";
import type { FailureReason } from "../errors.ts";
import { nearDuplicate, promptStems } from "../llm/artefacts/checks.ts";
import type { ChapterDraft } from "../llm/artefacts.ts";
import { newId, nowIso } from "../util.ts";
import type { DeliveryQueue } from "../webhooks/delivery-queue.ts";
import { queueEvent } from "../webhooks/outbox.ts";

export type Organization = "auto" | "thematic_bridge" | "sequential_sections" | "separate_courses";

/** A `courses` row as the engines return it (JSON columns as text, booleans as 0/1); the one row type of the table. */
export interface CourseRow {
  id: string;
  tenant_id: string;
  user_id: string;
  title: string;
  topic: string;
  slug: string;
  description: string | null;
  outline: string | null;
  source_type: string;
  status: "generating" | "completed" | "failed";
  organization: Organization | null;
  learning_goal: string | null;
  search_enabled: number;
  search_note: string | null;
  num_chapters: number;
  engine: string | null;
  model: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface ChapterRow {
  id: string;
  order_index: number;
  title: string;
  objectives: string;
  status: "pending" | "running" | "completed";
}

/** A run of a source's teaching paragraphs (see courses/sections.ts) that a chapter reads. */
export interface ChapterPart {
  document_id: string;
  /** Paragraph indexes [from, to) in the document's teaching paragraphs. */
  from: number;
  to: number;
  /** Heading-path depth of the sections' own headings; deeper headings are the chapter's subheadings. */
  depth: number;
}

export interface PlannedChapter {
  title: string;
  objectives: string[];
  /** The sources the chapter is drawn from; null for all of the course's sources. */
  source_document_ids: string[] | null;
  /** The sections the chapter reads (sequential courses from sources); absent: passages are retrieved. */
  parts?: ChapterPart[];
}

export interface CoursePlan {
  title: string;
  slug: string;
  description: string;
  /** The topic to record when the request gave none (the sources' dominant theme). */
  topic: string;
  organization: Organization | null;
  /** Mean lexical similarity of the sources, when the organization was chosen from it. */
  relatedness?: number;
  chapters: PlannedChapter[];
  /** How the course read each source (what it left out as repeated), for courses planned from sources. */
  sources?: PlannedSource[];
}

export interface PlannedSource {
  document_id: string;
  filename: string;
  /** Words of text the source repeats of itself, taught once where first seen. */
  repeated_words: number;
  repeated_sections: { heading_path: string[]; page: number | null; words: number }[];
}

/** A source a chapter cites: a retrieved passage of a document, or a web search result. */
export interface ChapterSourceRecord {
  document_id: string | null;
  chunk_id: string | null;
  filename: string | null;
  page: number | null;
  timestamp_seconds: number | null;
  url: string | null;
  title: string | null;
  excerpt: string;
  score: number | null;
  /** Indexes of the content paragraphs (blank-line separated blocks) this source grounds. */
  paragraphs: number[];
}

export function loadCourse(db: Sql, courseId: string): Promise<CourseRow | null> {
  return db.get<CourseRow>(sql`SELECT * FROM courses WHERE id = ${courseId}`);
}

export function chaptersOf(db: Sql, courseId: string): Promise<ChapterRow[]> {
  return db.all<ChapterRow>(
    sql`SELECT id, order_index, title, objectives, status FROM chapters WHERE course_id = ${courseId} ORDER BY order_index`,
  );
}

export async function outlineOf(db: Sql, courseId: string): Promise<{ chapters?: PlannedChapter[] } | null> {
  const row = await db.get<{ outline: string | null }>(sql`SELECT outline FROM courses WHERE id = ${courseId}`);
  return row?.outline ? (JSON.parse(row.outline) as { chapters?: PlannedChapter[] }) : null;
}

/** The outline and one pending row per chapter, so progress and resume know what is expected. */
export async function commitOutline(db: Sql, course: CourseRow, plan: CoursePlan): Promise<ChapterRow[]> {
  const now = nowIso();
  const outline = {
    title: plan.title,
    description: plan.description,
    organization: plan.organization,
    ...(plan.relatedness === undefined ? {} : { source_relatedness: Math.round(plan.relatedness * 1000) / 1000 }),
    chapters: plan.chapters.map((c, i) => ({ order_index: i, ...c })),
    ...(plan.sources ? { sources: plan.sources } : {}),
  };
  await db.transaction(async (tx) => {
    await tx.run(
      sql`UPDATE courses SET title = ${plan.title}, slug = ${plan.slug}, description = ${plan.description},
                 topic = ${course.topic || plan.topic}, organization = coalesce(${plan.organization}, organization),
                 outline = ${JSON.stringify(outline)}, num_chapters = ${plan.chapters.length}, updated_at = ${now}
           WHERE id = ${course.id}`,
    );
    for (const [i, c] of plan.chapters.entries()) {
      await tx.run(
        sql`INSERT INTO chapters (id, course_id, order_index, title, objectives, status, engine, model, created_at)
            VALUES (${newId()}, ${course.id}, ${i}, ${c.title}, ${JSON.stringify(c.objectives)}, 'pending',
                    ${course.engine}, ${course.model}, ${now})`,
      );
    }
  });
  return chaptersOf(db, course.id);
}

const resetRunning = (courseId: string): Query =>
  sql`UPDATE chapters SET status = 'pending' WHERE course_id = ${courseId} AND status = 'running'`;

/** Chapters left running by a process that died go back to pending before they are redone. */
export async function resetRunningChapters(db: Sql, courseId: string): Promise<void> {
  await db.run(resetRunning(courseId));
}

export async function markChapterRunning(db: Sql, chapterId: string): Promise<void> {
  await db.run(sql`UPDATE chapters SET status = 'running' WHERE id = ${chapterId} AND status = 'pending'`);
}

/** Content, key concepts, quiz and sources of one chapter, and its completion, in one transaction. */
export async function commitChapter(
  db: Sql,
  chapterId: string,
  draft: ChapterDraft,
  sources: ChapterSourceRecord[],
  maker: { engine: string | null; model: string | null },
): Promise<string> {
  const completedAt = nowIso();
  await db.transaction(async (tx) => {
    await tx.run(sql`DELETE FROM quiz_questions WHERE chapter_id = ${chapterId}`);
    await tx.run(sql`DELETE FROM chapter_sources WHERE chapter_id = ${chapterId}`);
    for (const [i, q] of draft.quiz.questions.entries()) {
      await tx.run(
        sql`INSERT INTO quiz_questions (id, chapter_id, position, type, prompt, choices, answer, explanation)
            VALUES (${newId()}, ${chapterId}, ${i}, ${q.type}, ${q.prompt}, ${JSON.stringify(q.choices)},
                    ${JSON.stringify(q.answer)}, ${q.explanation})`,
      );
    }
    for (const [i, src] of sources.entries()) {
      await tx.run(
        sql`INSERT INTO chapter_sources (id, chapter_id, position, document_id, chunk_id, filename, page, timestamp_seconds, url, title, excerpt, score, paragraphs)
            VALUES (${newId()}, ${chapterId}, ${i}, ${src.document_id}, ${src.chunk_id}, ${src.filename}, ${src.page},
                    ${src.timestamp_seconds}, ${src.url}, ${src.title}, ${src.excerpt}, ${src.score}, ${JSON.stringify(src.paragraphs)})`,
      );
    }
    await tx.run(
      sql`UPDATE chapters SET status = 'completed', content = ${draft.content}, key_concepts = ${JSON.stringify(draft.key_concepts)},
                 engine = ${maker.engine}, model = ${maker.model}, completed_at = ${completedAt}
           WHERE id = ${chapterId}`,
    );
  });
  return completedAt;
}

/** The course is complete: status, completion time and the course.completed event, atomically. */
export function completeCourse(
  db: Sql,
  { queue, clock }: { queue: DeliveryQueue; clock: Clock },
  course: CourseRow,
  jobId: string,
): Promise<{ title: string; chaptersCount: number }> {
  const now = isoNow(clock);
  return db.transaction(async (tx) => {
    await tx.run(
      sql`UPDATE courses SET status = 'completed', error = NULL, completed_at = ${now}, updated_at = ${now} WHERE id = ${course.id}`,
    );
    const head = (await tx.get<{ title: string; n: number }>(
      sql`SELECT c.title, CAST((SELECT count(*) FROM chapters WHERE course_id = c.id) AS INTEGER) AS n
            FROM courses c WHERE c.id = ${course.id}`,
    ))!;
    await queueEvent(tx, queue, clock, {
      tenantId: course.tenant_id,
      event: "course.completed",
      data: {
        job_id: jobId,
        course_id: course.id,
        title: head.title,
        chapters_count: head.n,
        source_type: course.source_type,
      },
    });
    return { title: head.title, chaptersCount: head.n };
  });
}

/**
 * The job ended in error: the course is failed with the structured reason and course.failed is
 * queued, in `tx`, the transaction that ends the job (its onFailure).
 */
export async function failCourse(
  tx: Sql,
  { queue, clock }: { queue: DeliveryQueue; clock: Clock },
  courseId: string,
  jobId: string,
  reason: FailureReason,
): Promise<{ tenantId: string } | null> {
  const course = await tx.get<{ tenant_id: string }>(sql`SELECT tenant_id FROM courses WHERE id = ${courseId}`);
  if (!course) return null;
  const now = isoNow(clock);
  await tx.run(
    sql`UPDATE courses SET status = 'failed', error = ${JSON.stringify(reason)}, updated_at = ${now} WHERE id = ${courseId}`,
  );
  await tx.run(resetRunning(courseId));
  await queueEvent(tx, queue, clock, {
    tenantId: course.tenant_id,
    event: "course.failed",
    data: { job_id: jobId, error: reason },
  });
  return { tenantId: course.tenant_id };
}

// A chapter keeps at least this many quiz questions even when some repeat an earlier chapter's.
const MIN_QUIZ = 3;

/**
 * Chapters are written in parallel and cannot see each other's quizzes; once all are written, a
 * question that asks again what an earlier chapter's quiz asked (a near-identical prompt, or the
 * same sentence quoted, as when a paper states one result in two sections) is dropped, in chapter
 * order, as long as its chapter keeps MIN_QUIZ questions. Safe to run again after a restart.
 */
export async function dropRepeatedQuizQuestions(db: Sql, courseId: string): Promise<void> {
  const rows = await db.all<{ id: string; chapter_id: string; prompt: string; explanation: string | null }>(
    sql`SELECT q.id, q.chapter_id, q.prompt, q.explanation FROM quiz_questions q JOIN chapters ch ON ch.id = q.chapter_id
         WHERE ch.course_id = ${courseId} ORDER BY ch.order_index, q.position`,
  );
  const left = new Map<string, number>();
  for (const r of rows) left.set(r.chapter_id, (left.get(r.chapter_id) ?? 0) + 1);
  const asked: { chapter: string; stems: Set<string> }[] = [];
  const drop: string[] = [];
  for (const r of rows) {
    const quoted = /“(.+?)” \(/.exec(r.explanation ?? "")?.[1];
    const stems = [promptStems(r.prompt), ...(quoted ? [promptStems(quoted)] : [])];
    const repeats = asked.some((a) => a.chapter !== r.chapter_id && stems.some((s) => nearDuplicate(a.stems, s)));
    if (repeats && left.get(r.chapter_id)! > MIN_QUIZ) {
      drop.push(r.id);
      left.set(r.chapter_id, left.get(r.chapter_id)! - 1);
      continue;
    }
    for (const s of stems) asked.push({ chapter: r.chapter_id, stems: s });
  }
  await db.transaction(async (tx) => {
    for (const id of drop) await tx.run(sql`DELETE FROM quiz_questions WHERE id = ${id}`);
  });
}
