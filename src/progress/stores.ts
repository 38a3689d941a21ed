/**
 * Where progress keeps and finds things: its own tables (attempts, reads, card schedules and
 * reviews), and the course, chapters, decks and exams of their owners, all through the two-engine
 * seam.
 */
import type { Sql } from "../db/sql.ts";

export interface ProgressStores {
  db: Sql;
}
