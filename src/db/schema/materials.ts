/** Drizzle view of migration 0006 (src/db/migrations/0006_materials.sql). */
import { index, integer, sqliteTable, text, unique } from "drizzle-orm/sqlite-core";
import { createdAt, id, json, materialColumns } from "./columns.ts";

export const studyGuides = sqliteTable("study_guides", {
  ...materialColumns(),
  // One guide per course: the course is the key.
  courseId: text("course_id").primaryKey(),
  guide: json("guide"),
  createdAt: createdAt(),
});

export const courseNotes = sqliteTable(
  "course_notes",
  {
    id: id(),
    ...materialColumns(),
    learningGoal: text("learning_goal").notNull(),
    learningStyle: text("learning_style").notNull(),
    tutorTone: text("tutor_tone").notNull(),
    notes: text("notes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique("course_notes_key").on(t.courseId, t.model, t.learningGoal, t.learningStyle, t.tutorTone),
    index("course_notes_latest").on(t.courseId, t.createdAt),
  ],
);

export const flashcardDecks = sqliteTable(
  "flashcard_decks",
  { id: id(), ...materialColumns(), deck: json("deck"), createdAt: createdAt() },
  (t) => [unique("flashcard_decks_key").on(t.courseId, t.model)],
);

export const exams = sqliteTable(
  "exams",
  {
    id: id(),
    ...materialColumns(),
    examSize: integer("exam_size").notNull(),
    exam: json("exam"),
    createdAt: createdAt(),
  },
  (t) => [unique("exams_key").on(t.courseId, t.model, t.examSize)],
);
