/**
 * Course generation: POST /v2/courses/generate and /generate-from-files (async, sync, stream),
 * GET /v2/jobs/{id} (and /jobs/{id}), GET /v2/courses/{id}/progress, POST /v2/courses/{id}/resume.
 */
import { Elysia, t } from "elysia";
import { followJobs } from "../../courses/follow.ts";
import { courseProgress, jobResource, ownedJob } from "../../courses/progress.ts";
import { resumeCourse } from "../../courses/resume.ts";
import { type Requester, startSourceCourses, startTopicCourse } from "../../courses/start.ts";
import { waitForCourses } from "../../courses/sync-result.ts";
import type { JobRow } from "../../jobs/queue.ts";
import type { Services } from "../../services.ts";
import { authOf, requestIdOf } from "../context.ts";
import { hasBody, notJson } from "../json-body.ts";
import { bodyReadByRoute, parseUrlArray, receiveUploads, uploadRequestBody } from "../multipart.ts";
import { CourseIdParams, errors, modelFailures, UserHeaders } from "../schemas.ts";
import { ownerOf, userOf } from "../user.ts";
import {
  FilesForm,
  generateResponses,
  Job,
  JobList,
  type Mode,
  ModeQuery,
  Progress,
  parseFilesForm,
  ResumeResponse,
  STREAM_DOC,
  TopicBody,
} from "./course-schemas.ts";
import { keepOpen, sseResponse } from "./course-sse.ts";

async function requester(svc: Services, request: Request): Promise<Requester> {
  return { auth: authOf(request), user: await userOf(svc, request, { create: true }), requestId: requestIdOf(request) };
}

interface Reply {
  svc: Services;
  request: Request;
  server: unknown;
  set: { status?: number | string; headers: Record<string, string | number> };
  mode: Mode;
  jobs: JobRow[];
  /** Several courses (separate_courses): lists instead of a single object. */
  many: boolean;
  who: Requester;
  startedAt: number;
}

async function reply(r: Reply) {
  const { svc, jobs } = r;
  if (r.mode === "async") {
    r.set.status = 202;
    const resources = await Promise.all(jobs.map((j) => jobResource(svc.sql, j)));
    return r.many ? { jobs: resources, count: resources.length } : resources[0]!;
  }
  keepOpen(r.server, r.request);
  if (r.mode === "stream") {
    const headers = Object.fromEntries(Object.entries(r.set.headers).map(([k, v]) => [k, String(v)]));
    const first = await Promise.all(jobs.map((j) => jobResource(svc.sql, j)));
    return sseResponse(
      first.map((data) => ({ event: "job", data })),
      (signal) =>
        followJobs(
          svc,
          jobs.map((j) => j.id),
          { signal },
        ),
      { keepaliveMs: svc.cfg.sseKeepaliveSeconds * 1000, headers },
    );
  }
  const done = await waitForCourses(
    { svc, auth: r.who.auth, startedAt: r.startedAt, signal: r.request.signal },
    jobs.map((j) => j.id),
  );
  return r.many
    ? { status: "completed" as const, mode: "sync" as const, courses: done.courses, usage: done.usage }
    : { status: "completed" as const, mode: "sync" as const, course: done.courses[0]!, usage: done.usage };
}

export const courseGenerationRoutes = (svc: Services) =>
  new Elysia({ name: "course-generation" })
    .post(
      "/v2/courses/generate",
      async ({ request, query, body, set, server }) => {
        const startedAt = performance.now();
        const who = await requester(svc, request);
        const job = await startTopicCourse(svc, who, {
          topic: body.topic,
          numChapters: body.num_chapters ?? 4,
          searchEnabled: body.search_enabled ?? false,
          learningGoal: body.learning_goal,
          modelKey: body.model_key,
        });
        return reply({
          svc,
          request,
          server,
          set,
          mode: query.mode ?? "async",
          jobs: [job],
          many: false,
          who,
          startedAt,
        });
      },
      {
        // Reached only by bodies that are not JSON (the app's parser takes JSON): most often a
        // course from files sent here, whose files and URLs would otherwise be dropped unseen.
        parse: ({ request, contentType }) => {
          if (hasBody(request)) {
            throw notJson(
              contentType,
              "send files, web_urls and youtube_urls as multipart/form-data to POST /v2/courses/generate-from-files",
            );
          }
        },
        headers: UserHeaders,
        query: ModeQuery,
        body: TopicBody,
        detail: {
          summary: "Generate a course from a topic",
          responses: generateResponses(
            Job,
            "TEST_USAGE_LIMIT",
            "TOPIC_NOT_COVERED",
            "MODEL_NOT_CONFIGURED",
            modelFailures("generation"),
          ),
          description:
            "async (default): 202 with the Job. sync: 200 when the course is complete, 500 with the structured reason when the model fails. " +
            `${STREAM_DOC} With no model configured, a topic is accepted only when the learner's indexed documents cover it (422 TOPIC_NOT_COVERED otherwise; 503 MODEL_NOT_CONFIGURED when the learner has no documents).`,
          tags: ["courses"],
        },
      },
    )
    .post(
      "/v2/courses/generate-from-files",
      async ({ request, query, set, server }) => {
        const startedAt = performance.now();
        const uploads = await receiveUploads(request, svc.cfg, {
          maxFiles: 10,
          maxFileBytes: svc.cfg.maxUploadFileBytes,
          maxTotalBytes: svc.cfg.maxUploadTotalBytes,
        });
        let jobs: JobRow[];
        let who: Requester;
        let many: boolean;
        try {
          const form = parseFilesForm(uploads.fields);
          who = await requester(svc, request);
          many = form.organization === "separate_courses";
          jobs = await startSourceCourses(svc, who, {
            topic: form.topic ?? null,
            organization: form.organization ?? "auto",
            numChapters: form.num_chapters ?? 4,
            searchEnabled: form.search_enabled ?? true,
            learningGoal: form.learning_goal,
            modelKey: form.model_key,
            files: uploads.files,
            youtubeUrls: parseUrlArray(form.youtube_urls, "youtube_urls"),
            webUrls: parseUrlArray(form.web_urls, "web_urls"),
          });
        } finally {
          // The uploads are stored as blobs by now (or refused): the temporary copies can go.
          await uploads.cleanup();
        }
        return reply({ svc, request, server, set, mode: query.mode ?? "async", jobs, many, who, startedAt });
      },
      {
        parse: bodyReadByRoute,
        headers: UserHeaders,
        query: ModeQuery,
        detail: {
          summary: "Generate a course from files, YouTube videos and web pages",
          responses: generateResponses(
            t.Union([Job, JobList]),
            "PAYLOAD_TOO_LARGE",
            "UNSUPPORTED_MEDIA_TYPE",
            "REQUEST_TIMEOUT",
            "TEST_USAGE_LIMIT",
            "SOURCES_FAILED",
            "COURSE_SOURCES_TOO_LARGE",
            modelFailures("generation"),
          ),
          description:
            "multipart/form-data: files (up to 10, 50 MB each, 500 MB in all), youtube_urls and web_urls (JSON arrays), " +
            "topic (optional: the sources' dominant theme otherwise), organization, num_chapters, search_enabled (default true), learning_goal. " +
            "An unsupported or mismatched file type is 415 for the whole request, before anything is stored. Sources are ingested " +
            "inside the job; any other bad source (an empty or unreadable file, a page address in youtube_urls, an unreachable URL) " +
            "is reported on its document and the course builds from the others. " +
            "separate_courses: async returns {jobs, count}, sync returns {courses: [...]}, stream follows every job. " +
            STREAM_DOC,
          tags: ["courses"],
          requestBody: uploadRequestBody(FilesForm.properties),
        },
      },
    )
    .get(
      "/v2/jobs/:job_id",
      async ({ request, params }) => jobOf(svc, request, params.job_id),
      jobRoute("A generation job"),
    )
    .get(
      "/jobs/:job_id",
      async ({ request, params }) => jobOf(svc, request, params.job_id),
      jobRoute("A generation job (unversioned alias of /v2/jobs/{id})"),
    )
    .get(
      "/v2/courses/:course_id/progress",
      async ({ request, params }) => courseProgress(svc.sql, await ownerOf(svc, request), params.course_id),
      {
        headers: UserHeaders,
        params: CourseIdParams,
        response: { 200: Progress, ...errors("NOT_FOUND") },
        detail: {
          summary: "Generation progress of a course",
          description:
            "progress_pct is completed/expected chapters, capped at 99 until the course (with its study guide) is committed; then 100.",
          tags: ["courses"],
        },
      },
    )
    .post(
      "/v2/courses/:course_id/resume",
      async ({ request, params }) =>
        resumeCourse(svc, await ownerOf(svc, request), params.course_id, requestIdOf(request)),
      {
        headers: UserHeaders,
        params: CourseIdParams,
        parse: bodyReadByRoute,
        response: { 200: ResumeResponse, ...errors("NOT_FOUND", "COURSE_GENERATING") },
        detail: {
          summary: "Resume a failed or interrupted course",
          description:
            "Generates only the missing chapters (then the study guide) in the background. 409 while the course is generating.",
          tags: ["courses"],
        },
      },
    );

/** A job is its learner's, like the course it builds: the user header is required (422 USER_REQUIRED). */
async function jobOf(svc: Services, request: Request, jobId: string) {
  return jobResource(svc.sql, await ownedJob(svc.sql, await ownerOf(svc, request), jobId));
}

/** GET /v2/jobs/{id} and its unversioned alias: the same route but for the summary. */
function jobRoute(summary: string) {
  return {
    headers: UserHeaders,
    params: t.Object({ job_id: t.String() }),
    response: { 200: Job, ...errors("NOT_FOUND") },
    detail: { summary, tags: ["jobs"] },
  };
}
