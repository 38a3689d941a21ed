/** Drizzle view of migration 0003 (src/db/migrations/0003_retrieval.sql); the FTS5 and vec0 tables are reached with SQL. */
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns.ts";

export const retrievalChunks = sqliteTable(
  "retrieval_chunks",
  {
    seq: integer("seq").primaryKey(),
    id: text("id").notNull().unique(),
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id"),
    documentId: text("document_id"),
    courseId: text("course_id"),
    chapterId: text("chapter_id"),
    spaceId: text("space_id"),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    context: text("context").notNull().default(""),
    headingPath: text("heading_path", { mode: "json" }).$type<string[]>().notNull().default([]),
    role: text("role").notNull().default("body"),
    page: integer("page"),
    slide: integer("slide"),
    timestampSeconds: real("timestamp_seconds"),
    embedder: text("embedder").notNull(),
    dimension: integer("dimension").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("retrieval_chunks_document").on(t.documentId, t.position),
    index("retrieval_chunks_chapter").on(t.chapterId, t.position),
    index("retrieval_chunks_course").on(t.courseId),
    index("retrieval_chunks_owner").on(t.tenantId, t.userId),
    index("retrieval_chunks_embedder").on(t.embedder, t.dimension),
  ],
);

export const retrievalVectorTables = sqliteTable(
  "retrieval_vector_tables",
  {
    embedder: text("embedder").notNull(),
    dimension: integer("dimension").notNull(),
    tableName: text("table_name").notNull().unique(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.embedder, t.dimension] })],
);
