/**
 * Where progress keeps and finds things: its own tables (attempts, reads, card schedules and
 * reviews) and the materials' decks and exams through the two-engine seam, and the course, whose
 * owner is not behind it yet, through the server's bun:sqlite connection.
 */
import type { Database } from "bun:sqlite";
import type { Sql } from "../db/sql.ts";

export interface ProgressStores {
  db: Sql;
  sqlite: Database;
}
