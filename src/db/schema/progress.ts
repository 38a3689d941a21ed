/** Drizzle view of migration 0010 (src/db/migrations/0010_learning_progress.sql). */
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id, json, learnerColumns, updatedAt } from "./columns.ts";

/** What a graded attempt keeps: its score out of its total, and the answers with their results. */
const gradedColumns = () => ({
  score: real("score").notNull(),
  total: integer("total").notNull(),
  answers: json("answers"),
  results: json("results"),
});

export const quizAttempts = sqliteTable(
  "quiz_attempts",
  {
    id: id(),
    ...learnerColumns(),
    chapterId: text("chapter_id").notNull(),
    orderIndex: integer("order_index").notNull(),
    ...gradedColumns(),
    questions: json("questions"),
    createdAt: createdAt(),
  },
  (t) => [index("quiz_attempts_learner").on(t.userId, t.courseId, t.orderIndex, t.createdAt)],
);

export const examAttempts = sqliteTable(
  "exam_attempts",
  {
    id: id(),
    ...learnerColumns(),
    examId: text("exam_id").notNull(),
    examSize: integer("exam_size").notNull(),
    examModel: text("exam_model").notNull(),
    ...gradedColumns(),
    graderEngine: text("grader_engine").notNull(),
    graderModel: text("grader_model").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("exam_attempts_learner").on(t.userId, t.courseId, t.createdAt)],
);

/** One card of a learner's deck. */
const cardColumns = () => ({
  ...learnerColumns(),
  deckId: text("deck_id").notNull(),
  cardIndex: integer("card_index").notNull(),
});

export const flashcardSchedules = sqliteTable(
  "flashcard_schedules",
  {
    ...cardColumns(),
    /** The ts-fsrs card (stability, difficulty, state, reps, lapses…) as JSON. */
    card: json("card"),
    due: text("due").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.deckId, t.cardIndex] }),
    index("flashcard_schedules_due").on(t.userId, t.deckId, t.due),
  ],
);

export const flashcardReviews = sqliteTable(
  "flashcard_reviews",
  {
    id: id(),
    ...cardColumns(),
    rating: text("rating", { enum: ["again", "hard", "good", "easy"] }).notNull(),
    reviewedAt: text("reviewed_at").notNull(),
    due: text("due").notNull(),
  },
  (t) => [index("flashcard_reviews_learner").on(t.userId, t.deckId, t.reviewedAt)],
);

export const chapterReads = sqliteTable(
  "chapter_reads",
  { ...learnerColumns(), chapterId: text("chapter_id").notNull(), readAt: text("read_at").notNull() },
  (t) => [primaryKey({ columns: [t.userId, t.chapterId] })],
);
