import { Elysia, t } from "elysia";
import type { AppServices } from "../../compose.ts";
import { generatePodcasts } from "../../podcasts/generate.ts";
import { listPodcasts } from "../../podcasts/list.ts";
import { TTS_PROVIDER_VALUES } from "../../podcasts/tts/registry.ts";
import { authOf, requestIdOf } from "../context.ts";
import { CourseIdParams, errors, UserHeaders } from "../schemas.ts";
import { ownerOf } from "../user.ts";

const FailureReason = t.Object({ code: t.String(), message: t.String(), request_id: t.Nullable(t.String()) });

const Episode = t.Object({
  id: t.String(),
  chapter_order: t.Integer(),
  title: t.String(),
  status: t.String({ description: "generating, ready or error" }),
  audio_url: t.Nullable(t.String({ description: "Signed MP3 URL, valid for MEDIA_URL_TTL_SECONDS; null until ready" })),
  script: t.Nullable(
    t.Object({ turns: t.Array(t.Object({ speaker: t.String({ description: "host or guest" }), text: t.String() })) }),
  ),
  tts_provider: t.String({ description: "Speech engine of the episode: piper or espeak" }),
  duration_seconds: t.Nullable(t.Number({ description: "Length of the audio; null until ready" })),
  created_at: t.String(),
  error: t.Optional(FailureReason),
});

const GenerateResponse = t.Object({
  message: t.String(),
  course_id: t.String(),
  total_chapters: t.Integer(),
  ready: t.Integer({ description: "Chapters whose episode was already ready" }),
  failed: t.Integer({ description: "Chapters whose episode had failed; they are generated again" }),
  status: t.String({ description: "generating, resuming or already_complete" }),
});

export const podcastRoutes = (svc: AppServices) =>
  new Elysia({ name: "podcasts" })
    .post(
      "/v2/courses/:course_id/podcasts/generate",
      // async, not a returned promise: Elysia reads a handler's text to tell whether to await it,
      // and the executable's minified text of a handler returning a promise may not show it
      // (test/http/route-guards.test.ts holds every route to this).
      async ({ request, params, query }) => {
        const owner = await ownerOf(svc, request);
        return generatePodcasts(svc, {
          owner,
          courseId: params.course_id,
          ttsProvider: query.tts_provider ?? null,
          tenantTtsProvider: authOf(request).ttsProvider,
          requestId: requestIdOf(request),
        });
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        query: t.Object({
          tts_provider: t.Optional(
            t.String({
              description: `${TTS_PROVIDER_VALUES.join(", ")}; provider_a is piper, provider_b is espeak. Default: the tenant's engine, else TTS_PROVIDER, else the first available`,
            }),
          ),
        }),
        response: {
          200: GenerateResponse,
          ...errors("NOT_FOUND", "COURSE_GENERATING", "COURSE_NOT_COMPLETED", "TTS_UNAVAILABLE"),
        },
        detail: {
          summary: "Produce a podcast episode for every chapter without a ready one",
          description:
            "Returns at once; episodes are produced in the background. Repeated and concurrent calls never create a second episode for a chapter.",
          tags: ["podcasts"],
        },
      },
    )
    .get(
      "/v2/courses/:course_id/podcasts",
      async ({ request, params, set }) => {
        // Audio URLs inside are signed and expire: the listing must not be cached.
        set.headers["cache-control"] = "private, no-store";
        return listPodcasts(svc, await ownerOf(svc, request), params.course_id);
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        response: {
          200: t.Object({ course_id: t.String(), episodes: t.Array(Episode), count: t.Integer() }),
          ...errors("NOT_FOUND"),
        },
        detail: { summary: "A course's podcast episodes in chapter order", tags: ["podcasts"] },
      },
    );
