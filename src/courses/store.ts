/**
 * The writes of course generation, each one transaction: the outline with its pending chapters,
 * one chapter at a time, and the final state (completed, failed) together with its webhook event.
 * A crash between two of them loses nothing committed; the job picks up from the last one.
 */
import type { Database } from "bun:sqlite";
import { isoNow } from "../clock.ts";
import type { FailureReason } from "../errors.ts";
import type { QueueDeps } from "../jobs/queue.ts";
import { nearDuplicate, promptStems } from "../llm/artefacts/checks.ts";
import type { ChapterDraft } from "../llm/artefacts.ts";
import { newId, nowIso } from "../util.ts";
import { recordEvent } from "../webhooks/outbox.ts";

export type Organization = "auto" | "thematic_bridge" | "sequential_sections" | "separate_courses";

/** A `courses` row as SQLite returns it (JSON columns as text, booleans as 0/1); the one row type of the table. */
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

export function loadCourse(sqlite: Database, courseId: string): CourseRow | null {
  return sqlite.query<CourseRow, [string]>("SELECT * FROM courses WHERE id = ?").get(courseId);
}

export function chaptersOf(sqlite: Database, courseId: string): ChapterRow[] {
  return sqlite
    .query<ChapterRow, [string]>(
      "SELECT id, order_index, title, objectives, status FROM chapters WHERE course_id = ? ORDER BY order_index",
    )
    .all(courseId);
}

export function outlineOf(sqlite: Database, courseId: string): { chapters?: PlannedChapter[] } | null {
  const row = sqlite
    .query<{ outline: string | null }, [string]>("SELECT outline FROM courses WHERE id = ?")
    .get(courseId);
  return row?.outline ? (JSON.parse(row.outline) as { chapters?: PlannedChapter[] }) : null;
}

/** The outline and one pending row per chapter, so progress and resume know what is expected. */
export function commitOutline(sqlite: Database, course: CourseRow, plan: CoursePlan): ChapterRow[] {
  const now = nowIso();
  const outline = {
    title: plan.title,
    description: plan.description,
    organization: plan.organization,
    ...(plan.relatedness === undefined ? {} : { source_relatedness: Math.round(plan.relatedness * 1000) / 1000 }),
    chapters: plan.chapters.map((c, i) => ({ order_index: i, ...c })),
    ...(plan.sources ? { sources: plan.sources } : {}),
  };
  sqlite.transaction(() => {
    sqlite.run(
      `UPDATE courses SET title = ?, slug = ?, description = ?, topic = ?, organization = coalesce(?, organization),
              outline = ?, num_chapters = ?, updated_at = ? WHERE id = ?`,
      [
        plan.title,
        plan.slug,
        plan.description,
        course.topic || plan.topic,
        plan.organization,
        JSON.stringify(outline),
        plan.chapters.length,
        now,
        course.id,
      ],
    );
    const insert = sqlite.query(
      `INSERT INTO chapters (id, course_id, order_index, title, objectives, status, engine, model, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
    );
    plan.chapters.forEach((c, i) => {
      insert.run(newId(), course.id, i, c.title, JSON.stringify(c.objectives), course.engine, course.model, now);
    });
  })();
  return chaptersOf(sqlite, course.id);
}

/** Chapters left running by a process that died go back to pending before they are redone. */
export function resetRunningChapters(sqlite: Database, courseId: string): void {
  sqlite.run("UPDATE chapters SET status = 'pending' WHERE course_id = ? AND status = 'running'", [courseId]);
}

export function markChapterRunning(sqlite: Database, chapterId: string): void {
  sqlite.run("UPDATE chapters SET status = 'running' WHERE id = ? AND status = 'pending'", [chapterId]);
}

/** Content, key concepts, quiz and sources of one chapter, and its completion, in one transaction. */
export function commitChapter(
  sqlite: Database,
  chapterId: string,
  draft: ChapterDraft,
  sources: ChapterSourceRecord[],
  maker: { engine: string | null; model: string | null },
): string {
  const completedAt = nowIso();
  sqlite.transaction(() => {
    sqlite.run("DELETE FROM quiz_questions WHERE chapter_id = ?", [chapterId]);
    sqlite.run("DELETE FROM chapter_sources WHERE chapter_id = ?", [chapterId]);
    const question = sqlite.query(
      `INSERT INTO quiz_questions (id, chapter_id, position, type, prompt, choices, answer, explanation)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    draft.quiz.questions.forEach((q, i) => {
      question.run(
        newId(),
        chapterId,
        i,
        q.type,
        q.prompt,
        JSON.stringify(q.choices),
        JSON.stringify(q.answer),
        q.explanation,
      );
    });
    const source = sqlite.query(
      `INSERT INTO chapter_sources (id, chapter_id, position, document_id, chunk_id, filename, page, timestamp_seconds, url, title, excerpt, score, paragraphs)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    sources.forEach((s, i) => {
      source.run(
        newId(),
        chapterId,
        i,
        s.document_id,
        s.chunk_id,
        s.filename,
        s.page,
        s.timestamp_seconds,
        s.url,
        s.title,
        s.excerpt,
        s.score,
        JSON.stringify(s.paragraphs),
      );
    });
    sqlite.run(
      `UPDATE chapters SET status = 'completed', content = ?, key_concepts = ?, engine = ?, model = ?, completed_at = ? WHERE id = ?`,
      [draft.content, JSON.stringify(draft.key_concepts), maker.engine, maker.model, completedAt, chapterId],
    );
  })();
  return completedAt;
}

/** The course is complete: status, completion time and the course.completed event, atomically. */
export function completeCourse(
  { sqlite, clock }: QueueDeps,
  course: CourseRow,
  jobId: string,
): { title: string; chaptersCount: number } {
  const now = isoNow(clock);
  return sqlite.transaction(() => {
    sqlite.run("UPDATE courses SET status = 'completed', error = NULL, completed_at = ?, updated_at = ? WHERE id = ?", [
      now,
      now,
      course.id,
    ]);
    const head = sqlite
      .query<{ title: string; n: number }, [string]>(
        "SELECT c.title, (SELECT count(*) FROM chapters WHERE course_id = c.id) AS n FROM courses c WHERE c.id = ?",
      )
      .get(course.id)!;
    recordEvent(
      { sqlite, clock },
      {
        tenantId: course.tenant_id,
        event: "course.completed",
        data: {
          job_id: jobId,
          course_id: course.id,
          title: head.title,
          chapters_count: head.n,
          source_type: course.source_type,
        },
      },
    );
    return { title: head.title, chaptersCount: head.n };
  })();
}

/**
 * The job ended in error: the course is failed with the structured reason and course.failed is
 * recorded. Runs inside the queue's failure transaction.
 */
export function failCourse(
  { sqlite, clock }: QueueDeps,
  courseId: string,
  jobId: string,
  reason: FailureReason,
): { tenantId: string } | null {
  const course = sqlite
    .query<{ tenant_id: string }, [string]>("SELECT tenant_id FROM courses WHERE id = ?")
    .get(courseId);
  if (!course) return null;
  const now = isoNow(clock);
  sqlite.run("UPDATE courses SET status = 'failed', error = ?, updated_at = ? WHERE id = ?", [
    JSON.stringify(reason),
    now,
    courseId,
  ]);
  resetRunningChapters(sqlite, courseId);
  recordEvent(
    { sqlite, clock },
    { tenantId: course.tenant_id, event: "course.failed", data: { job_id: jobId, error: reason } },
  );
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
export function dropRepeatedQuizQuestions(sqlite: Database, courseId: string): void {
  const rows = sqlite
    .query<{ id: string; chapter_id: string; prompt: string; explanation: string | null }, [string]>(
      `SELECT q.id, q.chapter_id, q.prompt, q.explanation FROM quiz_questions q JOIN chapters ch ON ch.id = q.chapter_id
        WHERE ch.course_id = ? ORDER BY ch.order_index, q.position`,
    )
    .all(courseId);
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
  const remove = sqlite.query("DELETE FROM quiz_questions WHERE id = ?");
  sqlite.transaction(() => {
    for (const id of drop) remove.run(id);
  })();
}
