/** GET podcasts: a course's episodes in chapter order. */
import { type CourseOwner, loadCourseOf } from "../courses/read.ts";
import type { PodcastDeps } from "./deps.ts";
import { courseEpisodes, episodeView } from "./episodes.ts";

export async function listPodcasts(deps: PodcastDeps, owner: CourseOwner, courseId: string) {
  const course = await loadCourseOf(deps.sql, owner, courseId);
  const episodes = (await courseEpisodes(deps.sql, course.id)).map((row) => episodeView(deps, row));
  return { course_id: course.id, episodes, count: episodes.length };
}
