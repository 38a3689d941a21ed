/** Drizzle view of migration 0010 (src/db/migrations/0010_learning_progress.sql). */
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const quizAttempts = sqliteTable(
  "quiz_attempts",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id").notNull(),
    courseId: text("course_id").notNull(),
    chapterId: text("chapter_id").notNull(),
    orderIndex: integer("order_index").notNull(),
    score: real("score").notNull(),
    total: integer("total").notNull(),
    questions: text("questions", { mode: "json" }).notNull(),
    answers: text("answers", { mode: "json" }).notNull(),
    results: text("results", { mode: "json" }).notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("quiz_attempts_learner").on(t.userId, t.courseId, t.orderIndex, t.createdAt)],
);

export const examAttempts = sqliteTable(
  "exam_attempts",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id").notNull(),
    courseId: text("course_id").notNull(),
    examId: text("exam_id").notNull(),
    examSize: integer("exam_size").notNull(),
    examModel: text("exam_model").notNull(),
    score: real("score").notNull(),
    total: integer("total").notNull(),
    answers: text("answers", { mode: "json" }).notNull(),
    results: text("results", { mode: "json" }).notNull(),
    graderEngine: text("grader_engine").notNull(),
    graderModel: text("grader_model").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("exam_attempts_learner").on(t.userId, t.courseId, t.createdAt)],
);

export const flashcardSchedules = sqliteTable(
  "flashcard_schedules",
  {
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id").notNull(),
    courseId: text("course_id").notNull(),
    deckId: text("deck_id").notNull(),
    cardIndex: integer("card_index").notNull(),
    /** The ts-fsrs card (stability, difficulty, state, reps, lapses…) as JSON. */
    card: text("card", { mode: "json" }).notNull(),
    due: text("due").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.deckId, t.cardIndex] }),
    index("flashcard_schedules_due").on(t.userId, t.deckId, t.due),
  ],
);

export const flashcardReviews = sqliteTable(
  "flashcard_reviews",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id").notNull(),
    courseId: text("course_id").notNull(),
    deckId: text("deck_id").notNull(),
    cardIndex: integer("card_index").notNull(),
    rating: text("rating", { enum: ["again", "hard", "good", "easy"] }).notNull(),
    reviewedAt: text("reviewed_at").notNull(),
    due: text("due").notNull(),
  },
  (t) => [index("flashcard_reviews_learner").on(t.userId, t.deckId, t.reviewedAt)],
);

export const chapterReads = sqliteTable(
  "chapter_reads",
  {
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id").notNull(),
    courseId: text("course_id").notNull(),
    chapterId: text("chapter_id").notNull(),
    readAt: text("read_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.chapterId] })],
);
