/** Course reads: the list (keyset-paginated, newest first) and the full course with its chapters. */
import { forUpdate, inJsonArray, raw, type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { decodeCursor, encodeCursor } from "../keyset-cursor.ts";
import { QUIZ_KINDS, quizKinds } from "../llm/extractive/prompt-kinds.ts";
import { generatedBy } from "../llm/fallback.ts";
import { QUIZ_SIZE } from "../llm/schemas.ts";
import { getOrCreate } from "../util.ts";
import { type ChapterSourceRecord, type CourseRow, loadCourse } from "./store.ts";

export interface CourseOwner {
  tenantId: string;
  userId: string;
}

/** What study materials, progress and exports need of a course. */
export type CourseHead = Pick<CourseRow, "id" | "title" | "status" | "model">;

const SUMMARY_COLUMNS = raw("id, title, topic, slug, source_type, status, created_at");

interface CourseSummaryRow {
  id: string;
  title: string;
  topic: string;
  slug: string;
  source_type: string;
  status: string;
  created_at: string;
}

/** The learner's courses, newest first, a page at a time after `cursor`, each with its written chapters' titles. */
export async function listCourses(db: Sql, owner: CourseOwner, limit: number, cursor?: string | null) {
  const after = cursor
    ? (() => {
        const c = decodeCursor(cursor);
        return sql` AND (created_at < ${c.createdAt} OR (created_at = ${c.createdAt} AND id < ${c.id}))`;
      })()
    : sql``;
  const rows = await db.all<CourseSummaryRow>(
    sql`SELECT ${SUMMARY_COLUMNS} FROM courses WHERE tenant_id = ${owner.tenantId} AND user_id = ${owner.userId}${after}
         ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`,
  );
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const byCourse = new Map<string, { order_index: number; title: string }[]>();
  if (page.length > 0) {
    const titles = await db.all<{ course_id: string; order_index: number; title: string }>(
      sql`SELECT course_id, order_index, title FROM chapters
           WHERE ${inJsonArray(
             "course_id",
             page.map((r) => r.id),
           )} AND status = 'completed'
           ORDER BY course_id, order_index`,
    );
    for (const ch of titles) {
      const list = getOrCreate(byCourse, ch.course_id, () => []);
      list.push({ order_index: ch.order_index, title: ch.title });
    }
  }
  const last = page[page.length - 1];
  return {
    data: page.map((r) => ({ ...r, chapters: byCourse.get(r.id) ?? [] })),
    pagination: {
      limit,
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor(last.created_at, last.id) : null,
    },
  };
}

/**
 * The course of this learner, for course-scoped endpoints (progress, materials, podcasts, exports):
 * 404 when it is missing or someone else's, as the spec lists for them.
 */
export async function loadCourseOf(db: Sql, owner: CourseOwner, courseId: string): Promise<CourseRow> {
  const row = await db.get<CourseRow>(
    sql`SELECT * FROM courses WHERE id = ${courseId} AND tenant_id = ${owner.tenantId} AND user_id = ${owner.userId}`,
  );
  if (!row) throw new AppError("NOT_FOUND", "Course not found");
  return row;
}

/**
 * Inside `tx`, holds the course's row until `tx` ends (on PostgreSQL; SQLite's seam transactions
 * run one at a time): work that adds rows under a course and its delete wait for each other, so
 * the work finds the course gone (404) rather than failing on its foreign key.
 */
export async function lockCourse(tx: Sql, courseId: string): Promise<void> {
  const row = await tx.get(sql`SELECT id FROM courses WHERE id = ${courseId}${forUpdate}`);
  if (!row) throw new AppError("NOT_FOUND", "Course not found");
}

/** A course by id alone, for work that runs on the course's behalf (jobs, the CLI); 404 when it is gone. */
export async function courseHead(db: Sql, courseId: string): Promise<CourseHead> {
  const row = await loadCourse(db, courseId);
  if (!row) throw new AppError("NOT_FOUND", "Course not found");
  return row;
}

/**
 * Loads a course for the single-course read: 404 when it does not exist or belongs to another
 * tenant (its existence is not revealed across tenants), 403 when another learner of the tenant
 * owns it (the spec lists 403 there).
 */
export async function loadOwnedCourse(db: Sql, owner: CourseOwner, courseId: string): Promise<CourseRow> {
  const row = await db.get<CourseRow>(
    sql`SELECT * FROM courses WHERE id = ${courseId} AND tenant_id = ${owner.tenantId}`,
  );
  if (!row) throw new AppError("NOT_FOUND", "Course not found");
  if (row.user_id !== owner.userId) throw new AppError("FORBIDDEN", "This course belongs to another user");
  return row;
}

/** A chapter source as read back: the record the generator stores, with its nullable excerpt column. */
type StoredSource = Omit<ChapterSourceRecord, "excerpt" | "paragraphs"> & {
  chapter_id: string;
  excerpt: string | null;
  paragraphs: string;
};

const parseJson = <T>(s: string | null, fallback: T): T => (s == null ? fallback : (JSON.parse(s) as T));

/** The full course: every completed chapter with content, key concepts, quiz and sources. */
export async function readCourse(db: Sql, owner: CourseOwner, courseId: string) {
  const c = await loadOwnedCourse(db, owner, courseId);
  const chapters = await db.all<{
    id: string;
    order_index: number;
    title: string;
    content: string | null;
    key_concepts: string;
    engine: string | null;
    model: string | null;
    completed_at: string | null;
  }>(
    sql`SELECT id, order_index, title, content, key_concepts, engine, model, completed_at FROM chapters
         WHERE course_id = ${courseId} AND status = 'completed' ORDER BY order_index`,
  );
  const questions = await db.all<{
    chapter_id: string;
    type: string;
    prompt: string;
    choices: string;
    answer: string;
    explanation: string | null;
  }>(
    sql`SELECT q.chapter_id, q.type, q.prompt, q.choices, q.answer, q.explanation FROM quiz_questions q
          JOIN chapters ch ON ch.id = q.chapter_id WHERE ch.course_id = ${courseId} ORDER BY q.chapter_id, q.position`,
  );
  const sources = (
    await db.all<StoredSource>(
      sql`SELECT s.chapter_id, s.document_id, s.chunk_id, s.filename, s.page, s.timestamp_seconds, s.url, s.title, s.excerpt, s.score, s.paragraphs
            FROM chapter_sources s JOIN chapters ch ON ch.id = s.chapter_id WHERE ch.course_id = ${courseId} ORDER BY s.chapter_id, s.position`,
    )
  ).map((s) => ({ ...s, paragraphs: JSON.parse(s.paragraphs) as number[] }));

  const group = <T extends { chapter_id: string }>(rows: T[]) => {
    const m = new Map<string, Omit<T, "chapter_id">[]>();
    for (const { chapter_id, ...rest } of rows) {
      const list = getOrCreate(m, chapter_id, () => []);
      list.push(rest);
    }
    return m;
  };
  const quizBy = group(questions);
  const sourcesBy = group(sources);

  return {
    id: c.id,
    title: c.title,
    topic: c.topic,
    slug: c.slug,
    description: c.description,
    outline: parseJson<unknown>(c.outline, null),
    source_type: c.source_type,
    status: c.status,
    organization: c.organization,
    learning_goal: c.learning_goal,
    search_enabled: c.search_enabled === 1,
    search_note: c.search_note,
    engine: c.engine,
    model: c.model,
    error: parseJson<unknown>(c.error, null),
    created_at: c.created_at,
    completed_at: c.completed_at,
    chapters: chapters.map((ch) => ({
      id: ch.id,
      order_index: ch.order_index,
      title: ch.title,
      content: ch.content ?? "",
      key_concepts: parseJson<string[]>(ch.key_concepts, []),
      quiz: quizView(ch.completed_at, quizBy.get(ch.id) ?? []),
      sources: sourcesBy.get(ch.id) ?? [],
      engine: ch.engine,
      model: ch.model,
      generated_by: generatedBy(ch.engine),
      completed_at: ch.completed_at,
    })),
  };
}

/**
 * A chapter's quiz as shown: its questions, and a note when the chapter's text supplied fewer than
 * the quiz asks for, or fewer kinds than a quiz mixes (a question failing the item checks is left
 * out rather than shown).
 */
function quizView(
  completedAt: string | null,
  rows: { type: string; prompt: string; choices: string; answer: string; explanation: string | null }[],
) {
  const questions = rows.map((q) => ({
    type: q.type,
    prompt: q.prompt,
    choices: parseJson<string[]>(q.choices, []),
    answer: parseJson<unknown>(q.answer, null),
    explanation: q.explanation,
  }));
  const kinds = quizKinds(questions.map((q) => q.prompt));
  const fewKinds = kinds !== null && questions.length > 0 && kinds < QUIZ_KINDS;
  if (completedAt === null || (questions.length >= QUIZ_SIZE && !fewKinds)) return { questions };
  const notes = [
    questions.length < QUIZ_SIZE ? `${questions.length} of the ${QUIZ_SIZE} questions asked for` : "",
    fewKinds ? `${kinds} kind${kinds === 1 ? "" : "s"} of question where a quiz mixes ${QUIZ_KINDS}` : "",
  ].filter(Boolean);
  return {
    questions,
    note: `${notes.join("; ")}: the chapter's text supplies no more that pass the item checks (whole questions, no trivia blanks, choices of one kind from the document)`,
  };
}
