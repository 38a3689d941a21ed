/** Drizzle view of migration 0005 (src/db/migrations/0005_courses.sql). */
import { integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const documentSegments = sqliteTable(
  "document_segments",
  {
    documentId: text("document_id").notNull(),
    position: integer("position").notNull(),
    markdown: text("markdown").notNull(),
    page: integer("page"),
    slide: integer("slide"),
    timestampSeconds: real("timestamp_seconds"),
    heading: text("heading"),
    role: text("role").notNull().default("body"),
    headingPath: text("heading_path", { mode: "json" }).$type<string[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.position] })],
);
