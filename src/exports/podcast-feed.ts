/**
 * A course's podcast feed as the API and podcast apps reach it: the owner opens or revokes it;
 * its token then opens the RSS document and the ready episodes' audio, at URLs under /feeds/.
 */
import type { Clock } from "../clock.ts";
import { type CourseOwner, loadCourseOf } from "../courses/read.ts";
import { loadCourse } from "../courses/store.ts";
import type { Sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { assertCompleted } from "../materials/assert-completed.ts";
import { blobPath } from "../media/blob-store.ts";
import type { Signer } from "../media/signer.ts";
import { courseEpisodes, getEpisode } from "../podcasts/episodes.ts";
import { feedOfToken, feedToken, openFeed, revokeFeed } from "./feed-tokens.ts";
import { feedXml } from "./podcast-rss.ts";

export interface FeedDeps {
  /** The course, its feeds and episodes, behind the two-engine seam. */
  db: Sql;
  cfg: { baseUrl: string; blobDir: string };
  feedSigner: Signer;
  clock: Clock;
}

export const feedUrl = (baseUrl: string, token: string) => `${baseUrl}/feeds/${token}/rss`;
const feedAudioUrl = (baseUrl: string, token: string, episodeId: string) =>
  `${baseUrl}/feeds/${token}/episodes/${episodeId}.mp3`;

/** POST podcasts/feed: the learner's completed course's feed URL, made when it has none. */
export async function courseFeed(svc: FeedDeps, owner: CourseOwner, courseId: string) {
  const course = await loadCourseOf(svc.db, owner, courseId);
  assertCompleted(course);
  const { feed, created } = await openFeed(svc.db, course.id);
  return {
    created,
    view: {
      course_id: course.id,
      feed_url: feedUrl(svc.cfg.baseUrl, feedToken(svc.feedSigner, feed)),
      created_at: feed.created_at,
    },
  };
}

/** DELETE podcasts/feed: 404 FEED_NOT_FOUND when the course has no live feed. */
export async function revokeCourseFeed(svc: FeedDeps, owner: CourseOwner, courseId: string): Promise<void> {
  const course = await loadCourseOf(svc.db, owner, courseId);
  if (!(await revokeFeed(svc.db, course.id))) throw new AppError("FEED_NOT_FOUND", "This course has no podcast feed");
}

async function liveFeed(svc: FeedDeps, token: string) {
  const feed = await feedOfToken(svc.db, svc.feedSigner, token);
  if (!feed) throw new AppError("NOT_FOUND", "No such feed; it may have been revoked");
  return feed;
}

/** The RSS document a feed token opens; 404 for an unknown or revoked token. */
export async function feedDocument(svc: FeedDeps, token: string): Promise<string> {
  const feed = await liveFeed(svc, token);
  const course = (await loadCourse(svc.db, feed.course_id))!;
  return feedXml({
    course,
    feedUrl: feedUrl(svc.cfg.baseUrl, token),
    audioUrl: (e) => feedAudioUrl(svc.cfg.baseUrl, token, e.id),
    episodes: await courseEpisodes(svc.db, course.id),
    now: svc.clock.now(),
  });
}

/** The audio file of a ready episode of the token's course (`<episode id>.mp3`); 404 otherwise. */
export async function feedEpisodeAudio(
  svc: FeedDeps,
  token: string,
  file: string,
): Promise<{ path: string; contentType: string }> {
  const feed = await liveFeed(svc, token);
  const m = /^([0-9a-f-]{36})\.mp3$/.exec(file);
  const episode = m ? await getEpisode(svc.db, m[1]!) : null;
  if (!episode || episode.course_id !== feed.course_id || episode.status !== "ready" || !episode.blob_key)
    throw new AppError("NOT_FOUND", "No such episode");
  return { path: blobPath(svc.cfg.blobDir, episode.blob_key), contentType: episode.content_type ?? "audio/mpeg" };
}
