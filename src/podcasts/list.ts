/** GET podcasts: a course's episodes in chapter order. */
import { type CourseOwner, loadCourseOf } from "../courses/read.ts";
import { sqliteSql } from "../db/sql.ts";
import type { PodcastDeps } from "./deps.ts";
import { courseEpisodes, episodeView } from "./episodes.ts";

export async function listPodcasts(deps: PodcastDeps, owner: CourseOwner, courseId: string) {
  const db = sqliteSql(deps.sqlite);
  const course = await loadCourseOf(db, owner, courseId);
  const episodes = (await courseEpisodes(db, course.id)).map((row) => episodeView(deps, row));
  return { course_id: course.id, episodes, count: episodes.length };
}
