/** The course exam: cached per (course, model, exam_size), written once even under concurrent requests. */
import type { Config } from "../config.ts";
import type { CourseHead } from "../courses/read.ts";
import { type Sql, sql } from "../db/sql.ts";
import type { ExamQuestion } from "../llm/artefacts.ts";
import { type FallbackDeps, type GeneratedBy, generatedBy } from "../llm/fallback.ts";
import { newId, nowIso } from "../util.ts";
import { assertCompleted } from "./assert-completed.ts";
import { type Maker, type MaterialDeps, writeMaterial } from "./engine.ts";
import { buildExamQuestions } from "./exam-builder.ts";
import { materialSource } from "./material-source.ts";
import { chooseModel } from "./model-choice.ts";
import { isQuantitative } from "./quantitative.ts";
import { cachedOrMade } from "./single-flight.ts";

export interface Exam {
  title: string;
  instructions: string;
  questions: ExamQuestion[];
  total: number;
}

export interface ExamResult {
  exam: Exam;
  from_cache: boolean;
  engine: string;
  model: string;
  generated_by: GeneratedBy;
  created_at: string;
}

/** The exam of (course, model, size), as generate-exam answers it. */
export async function readExam(
  db: Sql,
  courseId: string,
  model: string,
  size: number,
): Promise<Omit<ExamResult, "from_cache"> | null> {
  const row = await db.get<{ exam: string; engine: string; model: string; created_at: string }>(
    sql`SELECT exam, engine, model, created_at FROM exams
         WHERE course_id = ${courseId} AND model = ${model} AND exam_size = ${size}`,
  );
  return row
    ? {
        exam: JSON.parse(row.exam) as Exam,
        engine: row.engine,
        model: row.model,
        generated_by: generatedBy(row.engine),
        created_at: row.created_at,
      }
    : null;
}

export interface StoredExam {
  id: string;
  model: string;
  exam_size: number;
  exam: Exam;
}

/**
 * The course's newest exam (of `size` questions and of `model` when given), or null when none was
 * generated; exports and exam attempts both take this one.
 */
export async function findExam(
  db: Sql,
  courseId: string,
  opts: { size?: number; model?: string | null } = {},
): Promise<StoredExam | null> {
  const ofSize = opts.size === undefined ? sql`` : sql` AND exam_size = ${opts.size}`;
  const ofModel = (opts.model ?? null) === null ? sql`` : sql` AND model = ${opts.model}`;
  const row = await db.get<{ id: string; model: string; exam_size: number; exam: string }>(
    sql`SELECT id, model, exam_size, exam FROM exams WHERE course_id = ${courseId}${ofSize}${ofModel}
         ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
  return row ? { id: row.id, model: row.model, exam_size: row.exam_size, exam: JSON.parse(row.exam) as Exam } : null;
}

/** Stores the exam of (course, maker's model, size) unless there is one: the first exam stays. */
export async function storeExam(db: Sql, courseId: string, size: number, exam: Exam, by: Maker): Promise<void> {
  await db.run(
    sql`INSERT INTO exams (id, course_id, model, exam_size, exam, engine, created_at)
        VALUES (${newId()}, ${courseId}, ${by.model}, ${size}, ${JSON.stringify(exam)}, ${by.engine}, ${nowIso()})
        ON CONFLICT DO NOTHING`,
  );
}

const MODEL_ROUNDS = 4;

const LABELS = { mcq: "multiple-choice", short_answer: "short-answer", worked_problem: "worked-problem" } as const;
const HOW = {
  mcq: "choose the one correct option",
  short_answer: "answer in a few sentences; marks follow the rubric points",
  worked_problem: "show every step of your working",
} as const;

function instructionsFor(questions: ExamQuestion[]): string {
  const counts = (Object.keys(LABELS) as (keyof typeof LABELS)[])
    .map((type) => ({ type, n: questions.filter((q) => q.type === type).length }))
    .filter((c) => c.n > 0);
  const parts = counts.map((c) => `${c.n} ${LABELS[c.type]} (${HOW[c.type]})`);
  return `Answer all ${questions.length} questions: ${parts.join("; ")}. Questions are grouped by chapter.`;
}

export async function generateExam(
  svc: MaterialDeps & FallbackDeps & { cfg: Pick<Config, "examBatchSize" | "examConcurrency"> },
  course: CourseHead,
  opts: { examSize: number; modelKey?: string | null },
): Promise<ExamResult> {
  assertCompleted(course);
  const model = await chooseModel(svc.llm, course, opts.modelKey);
  const read = (db: Sql) => readExam(db, course.id, model, opts.examSize);
  return cachedOrMade(svc.sql, `exam:${course.id}:${model}:${opts.examSize}`, read, async (db) => {
    const { maker, source } = await materialSource(svc, db, course, model);
    const { value: questions, engine } = await writeMaterial(svc, maker, { course_id: course.id, step: "exam" }, (m) =>
      buildExamQuestions(svc.llm, {
        ...source,
        model: m.model,
        size: opts.examSize,
        batchSize: svc.cfg.examBatchSize,
        concurrency: svc.cfg.examConcurrency,
        rounds: MODEL_ROUNDS,
        // The built-in engine gives every question a chapter has at once, so the size it says it supplies is one it does.
        pooled: m.engine === "extractive",
        quantitative: isQuantitative,
      }),
    );
    const exam: Exam = {
      title: `${course.title}: Exam`,
      instructions: instructionsFor(questions),
      questions,
      total: questions.length,
    };
    await storeExam(db, course.id, opts.examSize, exam, { engine, model: maker.model });
  });
}
