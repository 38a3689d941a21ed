/**
 * Where progress keeps and finds things: its own tables (attempts, reads, card schedules and
 * reviews) through the two-engine seam, and the course and its materials, whose owners are not
 * behind it yet, through the server's bun:sqlite connection.
 */
import type { Database } from "bun:sqlite";
import type { Sql } from "../db/sql.ts";

export interface ProgressStores {
  db: Sql;
  sqlite: Database;
}
