/**
 * Exports: a completed course as a package other tools import (GET export?format=…), and its
 * podcast as a revocable RSS feed. Feed URLs carry their own token, so /feeds/* is public and
 * checks that token instead of an API key.
 */
import { Elysia, t } from "elysia";
import { loadCourseOf } from "../../courses/read.ts";
import { notFound } from "../../errors.ts";
import { exportPackage, EXPORT_FORMATS } from "../../exports/package.ts";
import { feedOfToken, feedToken, openFeed, revokeFeed } from "../../exports/feed-tokens.ts";
import { feedXml } from "../../exports/podcast-feed.ts";
import { assertCompleted } from "../../materials/course-content.ts";
import { blobPath } from "../../media/blob-store.ts";
import { fileResponse } from "../../media/file-response.ts";
import { courseEpisodes, getEpisode } from "../../podcasts/episodes.ts";
import type { Services } from "../../services.ts";
import { CourseIdParams, ErrorSchema, errors, UserHeaders } from "../schemas.ts";
import { ownerOf } from "../user.ts";

const Feed = t.Object({
  course_id: t.String(),
  feed_url: t.String({ description: "RSS 2.0 feed URL with its own token; valid until revoked" }),
  created_at: t.String(),
});

const jsonError = (description: string) => ({ description, content: { "application/json": { schema: ErrorSchema } } });

export const exportRoutes = (svc: Services) => {
  const feedUrl = (token: string) => `${svc.cfg.baseUrl}/feeds/${token}/rss`;
  const audioUrl = (token: string, episodeId: string) => `${svc.cfg.baseUrl}/feeds/${token}/episodes/${episodeId}.mp3`;
  const liveFeed = (token: string) => {
    const feed = feedOfToken(svc.sqlite, svc.cfg.dataDir, token);
    if (!feed) throw notFound("No such feed; it may have been revoked");
    return feed;
  };

  return new Elysia({ name: "exports" })
    .get(
      "/v2/courses/:course_id/export",
      async ({ request, params, query }) => {
        const pkg = await exportPackage(svc, ownerOf(svc, request), params.course_id, query.format);
        return new Response(pkg.body, {
          headers: { "content-type": pkg.contentType, "content-disposition": pkg.disposition, "cache-control": "private, no-store" },
        });
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        query: t.Object({
          format: t.Union(
            EXPORT_FORMATS.map((f) => t.Literal(f)),
            { description: "imscc (Common Cartridge 1.3), scorm12 (SCORM 1.2), apkg (Anki deck of the flashcards), markdown (zip of markdown and podcast audio)" },
          ),
        }),
        detail: {
          summary: "Download a completed course as a Common Cartridge, SCORM 1.2 package, Anki deck or markdown zip",
          description:
            "Streamed as it is built. Holds the chapters, the study guide and what has been generated so far (the newest notes, flashcard deck and exam, ready podcast episodes); nothing else is generated. apkg needs a flashcard deck (POST generate-flashcards).",
          tags: ["exports"],
          responses: {
            200: {
              description: "The package (zip)",
              content: {
                "application/vnd.ims.imsccv1p3": { schema: t.String({ format: "binary" }) },
                "application/zip": { schema: t.String({ format: "binary" }) },
                "application/apkg": { schema: t.String({ format: "binary" }) },
              },
            },
            401: jsonError("Missing or invalid API key"),
            404: jsonError("Course not found (or another learner's)"),
            409: jsonError("The course is not completed, or apkg was asked for before any flashcards were generated"),
            422: jsonError("Unknown format"),
            429: jsonError("Rate limited"),
            503: jsonError("The study guide had to be built and the model was unavailable"),
          },
        },
      },
    )
    .post(
      "/v2/courses/:course_id/podcasts/feed",
      ({ request, params, set }) => {
        const course = loadCourseOf(svc.sqlite, ownerOf(svc, request), params.course_id);
        assertCompleted(course);
        const { feed, created } = openFeed(svc.sqlite, course.id);
        set.status = created ? 201 : 200;
        set.headers["cache-control"] = "private, no-store";
        return { course_id: course.id, feed_url: feedUrl(feedToken(svc.cfg.dataDir, feed)), created_at: feed.created_at };
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        response: { 200: Feed, 201: Feed, ...errors(401, 404, 409, 422, 429) },
        detail: {
          summary: "Create (or return) the course's podcast feed URL",
          description:
            "201 with a new feed, 200 with the live one. The URL's token opens the RSS feed and its episodes' audio until DELETE revokes it; no other endpoint accepts it.",
          tags: ["podcasts"],
        },
      },
    )
    .delete(
      "/v2/courses/:course_id/podcasts/feed",
      ({ request, params, set }) => {
        const course = loadCourseOf(svc.sqlite, ownerOf(svc, request), params.course_id);
        if (!revokeFeed(svc.sqlite, course.id)) throw notFound("This course has no podcast feed", "FEED_NOT_FOUND");
        set.status = 204;
        return "";
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        response: { 204: t.Literal("", { description: "Revoked: the feed and its audio URLs are 404 from now on" }), ...errors(401, 404, 422, 429) },
        detail: { summary: "Revoke the course's podcast feed", tags: ["podcasts"] },
      },
    )
    .get(
      "/feeds/:token/rss",
      ({ params }) => {
        const feed = liveFeed(params.token);
        const course = svc.sqlite
          .query<{ id: string; title: string; description: string | null }, [string]>("SELECT id, title, description FROM courses WHERE id = ?")
          .get(feed.course_id)!;
        const xml = feedXml({
          course,
          feedUrl: feedUrl(params.token),
          audioUrl: (e) => audioUrl(params.token, e.id),
          episodes: courseEpisodes(svc.sqlite, course.id),
        });
        return new Response(xml, { headers: { "content-type": "application/rss+xml; charset=utf-8", "cache-control": "private, no-cache" } });
      },
      {
        params: t.Object({ token: t.String() }),
        detail: {
          summary: "A course's podcast as RSS 2.0 (the URL from POST podcasts/feed)",
          tags: ["podcasts"],
          security: [],
          responses: {
            200: { description: "RSS 2.0 with iTunes tags; ready episodes only", content: { "application/rss+xml": { schema: t.String() } } },
            404: jsonError("Unknown or revoked feed"),
          },
        },
      },
    )
    .get(
      "/feeds/:token/episodes/:file",
      async ({ params, request }) => {
        const feed = liveFeed(params.token);
        const m = /^([0-9a-f-]{36})\.mp3$/.exec(params.file);
        const episode = m ? getEpisode(svc.sqlite, m[1]!) : null;
        if (!episode || episode.course_id !== feed.course_id || episode.status !== "ready" || !episode.blob_key) throw notFound("No such episode");
        const file = Bun.file(blobPath(svc.cfg.dataDir, episode.blob_key));
        if (!(await file.exists())) throw notFound("No such episode");
        return fileResponse(request, file, { "content-type": episode.content_type ?? "audio/mpeg", "cache-control": "private, no-cache" });
      },
      {
        params: t.Object({ token: t.String(), file: t.String() }),
        detail: {
          summary: "An episode's audio through its feed (range requests supported)",
          tags: ["podcasts"],
          security: [],
          responses: {
            200: { description: "MP3 audio", content: { "audio/mpeg": { schema: t.String({ format: "binary" }) } } },
            206: { description: "Part of the audio", content: { "audio/mpeg": { schema: t.String({ format: "binary" }) } } },
            404: jsonError("Unknown or revoked feed, or no such ready episode"),
          },
        },
      },
    );
};
