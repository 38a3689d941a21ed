/** What every course material is written from: the course's title, its finished chapters, and the model that serves it. */
import { completedChapters } from "../courses/completed-chapters.ts";
import type { CourseHead } from "../courses/read.ts";
import type { Sql } from "../db/sql.ts";
import type { ChapterSummary } from "../llm/artefacts.ts";
import { type Maker, type MaterialDeps, makerOf } from "./engine.ts";

export interface MaterialSource {
  courseTitle: string;
  chapters: ChapterSummary[];
  /** The model the material is asked of, and stored under. */
  model: string;
}

/** The course's completed chapters for `model` (the default model when absent), and who will make the material. */
export async function materialSource(
  svc: MaterialDeps,
  db: Sql,
  course: Pick<CourseHead, "id" | "title">,
  model: string | null | undefined,
): Promise<{ maker: Maker; source: MaterialSource }> {
  const maker = makerOf(svc.llm, model);
  const chapters = await completedChapters({ db }, course.id);
  return { maker, source: { courseTitle: course.title, chapters, model: maker.model } };
}
