/**
 * Exports: a completed course as a package other tools import (GET export?format=…), and its
 * podcast as a revocable RSS feed. Feed URLs carry their own token, so /feeds/* is public and
 * checks that token instead of an API key.
 */
import { Elysia, t } from "elysia";
import { AppError } from "../../errors.ts";
import { EXPORT_FORMATS, exportPackage } from "../../exports/package.ts";
import { courseFeed, feedDocument, feedEpisodeAudio, revokeCourseFeed } from "../../exports/podcast-feed.ts";
import { fileResponse } from "../../media/file-response.ts";
import type { Services } from "../../services.ts";
import { CourseIdParams, errorResponses, errors, modelFailures, UserHeaders } from "../schemas.ts";
import { ownerOf } from "../user.ts";

const Feed = t.Object({
  course_id: t.String(),
  feed_url: t.String({ description: "RSS 2.0 feed URL with its own token; valid until revoked" }),
  created_at: t.String(),
});

export const exportRoutes = (svc: Services) => {
  const feeds = { ...svc, db: svc.sql };
  return new Elysia({ name: "exports" })
    .get(
      "/v2/courses/:course_id/export",
      async ({ request, params, query }) => {
        const pkg = await exportPackage(svc, await ownerOf(svc, request), params.course_id, query.format);
        return new Response(pkg.body, {
          headers: {
            "content-type": pkg.contentType,
            "content-disposition": pkg.disposition,
            "cache-control": "private, no-store",
          },
        });
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        query: t.Object({
          format: t.Union(
            EXPORT_FORMATS.map((f) => t.Literal(f)),
            {
              description:
                "imscc (Common Cartridge 1.3), scorm12 (SCORM 1.2), apkg (Anki deck of the flashcards), markdown (zip of markdown and podcast audio)",
            },
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
            ...errorResponses(
              "NOT_FOUND",
              "COURSE_GENERATING",
              "COURSE_NOT_COMPLETED",
              "COURSE_EMPTY",
              "FLASHCARDS_NOT_GENERATED",
              modelFailures("materials"),
            ),
          },
        },
      },
    )
    .post(
      "/v2/courses/:course_id/podcasts/feed",
      async ({ request, params, set }) => {
        const { created, view } = await courseFeed(feeds, await ownerOf(svc, request), params.course_id);
        set.status = created ? 201 : 200;
        // The URL is a credential for the feed: not to be kept by caches.
        set.headers["cache-control"] = "private, no-store";
        return view;
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        response: { 200: Feed, 201: Feed, ...errors("NOT_FOUND", "COURSE_GENERATING", "COURSE_NOT_COMPLETED") },
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
      async ({ request, params, set }) => {
        await revokeCourseFeed(feeds, await ownerOf(svc, request), params.course_id);
        set.status = 204;
        return "";
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        response: {
          204: t.Literal("", { description: "Revoked: the feed and its audio URLs are 404 from now on" }),
          ...errors("NOT_FOUND", "FEED_NOT_FOUND"),
        },
        detail: { summary: "Revoke the course's podcast feed", tags: ["podcasts"] },
      },
    )
    .get(
      "/feeds/:token/rss",
      async ({ params }) =>
        new Response(await feedDocument(feeds, params.token), {
          headers: { "content-type": "application/rss+xml; charset=utf-8", "cache-control": "private, no-cache" },
        }),
      {
        params: t.Object({ token: t.String() }),
        detail: {
          summary: "A course's podcast as RSS 2.0 (the URL from POST podcasts/feed)",
          tags: ["podcasts"],
          security: [],
          responses: {
            200: {
              description: "RSS 2.0 with iTunes tags; ready episodes only",
              content: { "application/rss+xml": { schema: t.String() } },
            },
            ...errorResponses("NOT_FOUND"),
          },
        },
      },
    )
    .get(
      "/feeds/:token/episodes/:file",
      async ({ params, request }) => {
        const audio = await feedEpisodeAudio(feeds, params.token, params.file);
        const file = Bun.file(audio.path);
        if (!(await file.exists())) throw new AppError("NOT_FOUND", "No such episode");
        return fileResponse(request, file, { "content-type": audio.contentType, "cache-control": "private, no-cache" });
      },
      {
        params: t.Object({ token: t.String(), file: t.String() }),
        detail: {
          summary: "An episode's audio through its feed (range requests supported)",
          tags: ["podcasts"],
          security: [],
          responses: {
            200: { description: "MP3 audio", content: { "audio/mpeg": { schema: t.String({ format: "binary" }) } } },
            206: {
              description: "Part of the audio",
              content: { "audio/mpeg": { schema: t.String({ format: "binary" }) } },
            },
            ...errorResponses("NOT_FOUND", "RANGE_NOT_SATISFIABLE"),
          },
        },
      },
    );
};
