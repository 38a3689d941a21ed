/** Columns many tables share, each declared as the migrations write it. */
import { text } from "drizzle-orm/sqlite-core";

export const id = () => text("id").primaryKey();
export const createdAt = () => text("created_at").notNull();
export const updatedAt = () => text("updated_at").notNull();
/** A JSON document stored as text. */
export const json = (name: string) => text(name, { mode: "json" }).notNull();

/** Whose progress a row is: the learner, its tenant and the course. */
export const learnerColumns = () => ({
  tenantId: text("tenant_id").notNull(),
  userId: text("user_id").notNull(),
  courseId: text("course_id").notNull(),
});

/** A cached study material: its course, the model it was made for and the engine that made it. */
export const materialColumns = () => ({
  courseId: text("course_id").notNull(),
  model: text("model").notNull(),
  engine: text("engine").notNull(),
});
