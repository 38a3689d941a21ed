/**
 * Study notes: cached per (course, model, learning_goal, learning_style, tutor_tone). The first
 * generation of a combination is charged 0.05 USD in the usage ledger, in the same transaction that
 * stores the notes, so a charge never exists without its notes nor notes without their charge.
 */
import type { Database } from "bun:sqlite";
import { OPERATIONS, PRICES_MICROS, recordUsage } from "../billing/index.ts";
import type { CourseHead } from "../courses/read.ts";
import type { Db } from "../db/index.ts";
import { AppError } from "../errors.ts";
import { type NotesGoal, type NotesStyle, type TutorTone, writeNotes } from "../llm/artefacts.ts";
import { type FallbackDeps, type GeneratedBy, generatedBy } from "../llm/fallback.ts";
import type { AuthContext } from "../tenants/keys.ts";
import { newId, nowIso } from "../util.ts";
import { assertCompleted } from "./assert-completed.ts";
import { type MaterialDeps, writeMaterial } from "./engine.ts";
import { materialSource } from "./material-source.ts";
import { chooseModel } from "./model-choice.ts";
import { singleFlight } from "./single-flight.ts";

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

function readNotes(sqlite: Database, courseId: string, model: string, o: NotesOptions): StoredNotes | null {
  const row = sqlite
    .query<NotesRow, [string, string, string, string, string]>(
      `SELECT * FROM course_notes
        WHERE course_id = ? AND model = ? AND learning_goal = ? AND learning_style = ? AND tutor_tone = ?`,
    )
    .get(courseId, model, o.learning_goal, o.learning_style, o.tutor_tone);
  return row ? toStored(row) : null;
}

/** The newest stored notes of the course, narrowed by any options given; null when there are none. */
export function findLatestNotes(
  sqlite: Database,
  courseId: string,
  filter: Partial<NotesOptions> = {},
): StoredNotes | null {
  const row = sqlite
    .query<NotesRow, [string, string | null, string | null, string | null]>(
      `SELECT * FROM course_notes
        WHERE course_id = ?1 AND (?2 IS NULL OR learning_goal = ?2) AND (?3 IS NULL OR learning_style = ?3)
          AND (?4 IS NULL OR tutor_tone = ?4)
        ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    )
    .get(courseId, filter.learning_goal ?? null, filter.learning_style ?? null, filter.tutor_tone ?? null);
  return row ? toStored(row) : null;
}

/** As findLatestNotes, 404 when there are none. */
export function latestNotes(sqlite: Database, courseId: string, filter: Partial<NotesOptions> = {}): StoredNotes {
  const notes = findLatestNotes(sqlite, courseId, filter);
  if (!notes)
    throw new AppError(
      "NOTES_NOT_FOUND",
      "No notes have been generated for this course yet; POST /v2/courses/{course_id}/generate-notes first",
    );
  return notes;
}

export async function generateNotes(
  svc: MaterialDeps & FallbackDeps & { db: Db },
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
  const cached = readNotes(svc.sqlite, course.id, model, options);
  if (cached) return { notes: cached, cached: true };

  const key = `notes:${course.id}:${model}:${options.learning_goal}:${options.learning_style}:${options.tutor_tone}`;
  const { value, joined } = await singleFlight(key, async () => {
    const again = readNotes(svc.sqlite, course.id, model, options);
    if (again) return { notes: again, cached: true };
    const { maker, source } = materialSource(svc, course, model);
    const { value: markdown, engine } = await writeMaterial(svc, maker, { course_id: course.id, step: "notes" }, (m) =>
      writeNotes(svc.llm, {
        ...source,
        model: m.model,
        learningGoal: options.learning_goal,
        learningStyle: options.learning_style,
        tutorTone: options.tutor_tone,
      }),
    );
    const id = newId();
    const inserted = svc.sqlite.transaction(() => {
      const { changes } = svc.sqlite.run(
        `INSERT OR IGNORE INTO course_notes (id, course_id, model, learning_goal, learning_style, tutor_tone, notes, engine, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          course.id,
          maker.model,
          options.learning_goal,
          options.learning_style,
          options.tutor_tone,
          markdown,
          engine,
          nowIso(),
        ],
      );
      if (changes === 1) {
        recordUsage(svc.db, {
          tenantId: opts.payer.auth.tenantId,
          userId: opts.payer.userId,
          apiKeyId: opts.payer.auth.keyId,
          keyEnv: opts.payer.auth.keyEnv,
          operation: OPERATIONS.notes,
          amountMicros: PRICES_MICROS.notes,
          refId: id,
        });
      }
      return changes === 1;
    })();
    return { notes: readNotes(svc.sqlite, course.id, model, options)!, cached: !inserted };
  });
  return { notes: value.notes, cached: joined || value.cached };
}
