/** What every course material is written from: the course's title, its finished chapters, and the model that serves it. */
import { completedChapters } from "../courses/completed-chapters.ts";
import type { CourseHead } from "../courses/read.ts";
import type { ChapterSummary } from "../llm/artefacts.ts";
import { type Maker, type MaterialDeps, makerOf } from "./engine.ts";

export interface MaterialSource {
  courseTitle: string;
  chapters: ChapterSummary[];
  /** The model the material is asked of, and stored under. */
  model: string;
}

/** The course's completed chapters for `model` (the default model when absent), and who will make the material. */
export function materialSource(
  svc: MaterialDeps,
  course: Pick<CourseHead, "id" | "title">,
  model: string | null | undefined,
): { maker: Maker; source: MaterialSource } {
  const maker = makerOf(svc.llm, model);
  return {
    maker,
    source: { courseTitle: course.title, chapters: completedChapters(svc.sqlite, course.id), model: maker.model },
  };
}
