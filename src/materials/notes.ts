/**
 * Study notes: cached per (course, model, learning_goal, learning_style, tutor_tone). The first
 * generation of a combination is charged 0.05 USD in the usage ledger, in the same transaction that
 * stores the notes, so a charge never exists without its notes nor notes without their charge.
 */
import { addUsage, OPERATIONS, PRICES_MICROS } from "../billing/index.ts";
import type { CourseHead } from "../courses/read.ts";
import { raw, type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { type NotesGoal, type NotesStyle, type TutorTone, writeNotes } from "../llm/artefacts.ts";
import { type FallbackDeps, type GeneratedBy, generatedBy } from "../llm/fallback.ts";
import type { AuthContext } from "../tenants/keys.ts";
import { newId, nowIso } from "../util.ts";
import { assertCompleted } from "./assert-completed.ts";
import { type Maker, type MaterialDeps, writeMaterial } from "./engine.ts";
import { materialSource } from "./material-source.ts";
import { chooseModel } from "./model-choice.ts";
import { madeOnce, singleFlight } from "./single-flight.ts";

export interface NotesOptions {
  learning_goal: NotesGoal;
  learning_style: NotesStyle;
  tutor_tone: TutorTone;
}

export interface StoredNotes {
  course_id: string;
  notes: string;
  options: NotesOptions;
  engine: string;
  model: string;
  generated_by: GeneratedBy;
  created_at: string;
}

interface NotesRow {
  id: string;
  course_id: string;
  notes: string;
  learning_goal: string;
  learning_style: string;
  tutor_tone: string;
  engine: string;
  model: string;
  created_at: string;
}

const toStored = (r: NotesRow): StoredNotes => ({
  course_id: r.course_id,
  notes: r.notes,
  options: {
    learning_goal: r.learning_goal as NotesGoal,
    learning_style: r.learning_style as NotesStyle,
    tutor_tone: r.tutor_tone as TutorTone,
  },
  engine: r.engine,
  model: r.model,
  generated_by: generatedBy(r.engine),
  created_at: r.created_at,
});

function readNotes(db: Sql, courseId: string, model: string, o: NotesOptions): Promise<StoredNotes | null> {
  return db
    .get<NotesRow>(
      sql`SELECT * FROM course_notes
           WHERE course_id = ${courseId} AND model = ${model} AND learning_goal = ${o.learning_goal}
             AND learning_style = ${o.learning_style} AND tutor_tone = ${o.tutor_tone}`,
    )
    .then((row) => (row ? toStored(row) : null));
}

/** The newest stored notes of the course, narrowed by any options given; null when there are none. */
export async function findLatestNotes(
  db: Sql,
  courseId: string,
  filter: Partial<NotesOptions> = {},
): Promise<StoredNotes | null> {
  const is = (column: keyof NotesOptions) =>
    (filter[column] ?? null) === null ? sql`` : sql` AND ${raw(column)} = ${filter[column]}`;
  const row = await db.get<NotesRow>(
    sql`SELECT * FROM course_notes
         WHERE course_id = ${courseId}${is("learning_goal")}${is("learning_style")}${is("tutor_tone")}
         ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
  return row ? toStored(row) : null;
}

/** As findLatestNotes, 404 when there are none. */
export async function latestNotes(db: Sql, courseId: string, filter: Partial<NotesOptions> = {}): Promise<StoredNotes> {
  const notes = await findLatestNotes(db, courseId, filter);
  if (!notes)
    throw new AppError(
      "NOTES_NOT_FOUND",
      "No notes have been generated for this course yet; POST /v2/courses/{course_id}/generate-notes first",
    );
  return notes;
}

/**
 * Stores the notes of (course, model, options) unless they exist, charging `payer` for them in the
 * same transaction; answers whether these were stored (and charged).
 */
export function storeNotes(
  db: Sql,
  courseId: string,
  options: NotesOptions,
  markdown: string,
  by: Maker,
  payer: { auth: AuthContext; userId: string },
): Promise<boolean> {
  const id = newId();
  return db.transaction(async (tx) => {
    const inserted = await tx.run(
      sql`INSERT INTO course_notes (id, course_id, model, learning_goal, learning_style, tutor_tone, notes, engine, created_at)
          VALUES (${id}, ${courseId}, ${by.model}, ${options.learning_goal}, ${options.learning_style}, ${options.tutor_tone},
                  ${markdown}, ${by.engine}, ${nowIso()})
          ON CONFLICT DO NOTHING`,
    );
    if (inserted === 1) {
      await addUsage(tx, {
        tenantId: payer.auth.tenantId,
        userId: payer.userId,
        apiKeyId: payer.auth.keyId,
        keyEnv: payer.auth.keyEnv,
        operation: OPERATIONS.notes,
        amountMicros: PRICES_MICROS.notes,
        refId: id,
      });
    }
    return inserted === 1;
  });
}

export async function generateNotes(
  svc: MaterialDeps & FallbackDeps,
  course: CourseHead,
  opts: NotesOptions & { modelKey?: string | null; payer: { auth: AuthContext; userId: string } },
): Promise<{ notes: StoredNotes; cached: boolean }> {
  assertCompleted(course);
  const options: NotesOptions = {
    learning_goal: opts.learning_goal,
    learning_style: opts.learning_style,
    tutor_tone: opts.tutor_tone,
  };
  const model = await chooseModel(svc.llm, course, opts.modelKey);
  const db = svc.sql;
  const read = (tx: Sql) => readNotes(tx, course.id, model, options);
  const cached = await read(db);
  if (cached) return { notes: cached, cached: true };

  const key = `notes:${course.id}:${model}:${options.learning_goal}:${options.learning_style}:${options.tutor_tone}`;
  let stored = false;
  const { value, joined } = await singleFlight(key, () =>
    madeOnce(db, key, read, async (tx) => {
      const { maker, source } = await materialSource(svc, tx, course, model);
      const { value: markdown, engine } = await writeMaterial(
        svc,
        maker,
        { course_id: course.id, step: "notes" },
        (m) =>
          writeNotes(svc.llm, {
            ...source,
            model: m.model,
            learningGoal: options.learning_goal,
            learningStyle: options.learning_style,
            tutorTone: options.tutor_tone,
          }),
      );
      stored = await storeNotes(tx, course.id, options, markdown, { engine, model: maker.model }, opts.payer);
    }),
  );
  return { notes: value.value, cached: joined || !stored };
}
