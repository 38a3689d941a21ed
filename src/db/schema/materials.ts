/** Drizzle view of migration 0006 (src/db/migrations/0006_materials.sql). */
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const studyGuides = sqliteTable("study_guides", {
  courseId: text("course_id").primaryKey(),
  guide: text("guide", { mode: "json" }).notNull(),
  engine: text("engine").notNull(),
  model: text("model").notNull(),
  createdAt: text("created_at").notNull(),
});

export const courseNotes = sqliteTable(
  "course_notes",
  {
    id: text("id").primaryKey(),
    courseId: text("course_id").notNull(),
    model: text("model").notNull(),
    learningGoal: text("learning_goal").notNull(),
    learningStyle: text("learning_style").notNull(),
    tutorTone: text("tutor_tone").notNull(),
    notes: text("notes").notNull(),
    engine: text("engine").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("course_notes_key").on(t.courseId, t.model, t.learningGoal, t.learningStyle, t.tutorTone)],
);

export const flashcardDecks = sqliteTable(
  "flashcard_decks",
  {
    id: text("id").primaryKey(),
    courseId: text("course_id").notNull(),
    model: text("model").notNull(),
    deck: text("deck", { mode: "json" }).notNull(),
    engine: text("engine").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("flashcard_decks_key").on(t.courseId, t.model)],
);

export const exams = sqliteTable(
  "exams",
  {
    id: text("id").primaryKey(),
    courseId: text("course_id").notNull(),
    model: text("model").notNull(),
    examSize: integer("exam_size").notNull(),
    exam: text("exam", { mode: "json" }).notNull(),
    engine: text("engine").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("exams_key").on(t.courseId, t.model, t.examSize)],
);
