import { Elysia, t } from "elysia";
import { deleteCourse } from "../../courses/delete.ts";
import { listCourses, readCourse } from "../../courses/read.ts";
import { episodeBlobKeys } from "../../podcasts/episodes.ts";
import type { Services } from "../../services.ts";
import { CourseIdParams, errors, PAGE_QUERY, Page, UserHeaders } from "../schemas.ts";
import { ownerOf } from "../user.ts";

const ChapterSummary = t.Object({ order_index: t.Integer(), title: t.String() });
const CourseSummary = t.Object({
  id: t.String(),
  title: t.String(),
  topic: t.String(),
  slug: t.String(),
  source_type: t.String(),
  status: t.String(),
  created_at: t.String(),
  chapters: t.Array(ChapterSummary),
});

const QuizQuestion = t.Object({
  type: t.String({ description: "mcq" }),
  prompt: t.String(),
  choices: t.Array(t.String()),
  answer: t.Unknown({ description: "Index into choices for mcq" }),
  explanation: t.Nullable(t.String()),
});
export const ChapterSource = t.Object({
  document_id: t.Nullable(t.String()),
  chunk_id: t.Nullable(t.String()),
  filename: t.Nullable(t.String()),
  page: t.Nullable(t.Integer()),
  timestamp_seconds: t.Nullable(t.Number()),
  url: t.Nullable(t.String()),
  title: t.Nullable(t.String()),
  excerpt: t.Nullable(t.String()),
  score: t.Nullable(t.Number()),
  paragraphs: t.Array(t.Integer({ minimum: 0 }), {
    description:
      "0-based indexes of the chapter content's paragraphs (blank-line separated blocks, headings counted) that this source grounds",
  }),
});
export const Chapter = t.Object({
  id: t.String(),
  order_index: t.Integer(),
  title: t.String(),
  content: t.String({ description: "Markdown" }),
  key_concepts: t.Array(t.String()),
  quiz: t.Object({
    questions: t.Array(QuizQuestion),
    note: t.Optional(
      t.String({
        description:
          "Present when the chapter's text supplied fewer questions than a quiz asks for (5) that pass the item checks",
      }),
    ),
  }),
  sources: t.Array(ChapterSource),
  engine: t.Nullable(t.String()),
  model: t.Nullable(t.String()),
  generated_by: t.Union([t.Literal("model"), t.Literal("extractive")], {
    description:
      "Who wrote the chapter: the configured model, or the built-in extractive engine (a course with no model, or with LLM_FALLBACK=extractive a chapter the model failed)",
  }),
  completed_at: t.Nullable(t.String()),
});
export const Course = t.Object({
  id: t.String(),
  title: t.String(),
  topic: t.String(),
  slug: t.String(),
  description: t.Nullable(t.String()),
  outline: t.Unknown({ description: "Title, description and planned chapters with objectives" }),
  source_type: t.String(),
  status: t.String({ description: "generating, completed or failed" }),
  organization: t.Nullable(t.String()),
  learning_goal: t.Nullable(t.String()),
  search_enabled: t.Boolean(),
  search_note: t.Nullable(t.String()),
  engine: t.Nullable(t.String({ description: "Engine that generated the course (ollama, openai, extractive)" })),
  model: t.Nullable(t.String()),
  error: t.Unknown({ description: "Structured failure reason, or null" }),
  created_at: t.String(),
  completed_at: t.Nullable(t.String()),
  chapters: t.Array(Chapter),
});

export const courseReadRoutes = (svc: Services) => {
  const db = svc.sql;
  return new Elysia({ name: "course-reads" })
    .get(
      "/v2/courses",
      // The hottest authenticated read: serialised here rather than re-encoded against the response
      // schema on every call (that was a sixth of its time); the schema still documents it.
      async ({ request, query }) =>
        new Response(
          JSON.stringify(await listCourses(db, await ownerOf(svc, request), query.limit ?? 20, query.cursor)),
          {
            headers: { "content-type": "application/json" },
          },
        ),
      {
        headers: UserHeaders,
        query: t.Object(PAGE_QUERY),
        response: {
          200: Page(CourseSummary),
        },
        detail: { summary: "The caller's courses, newest first", tags: ["courses"] },
      },
    )
    .get(
      "/v2/courses/:course_id",
      async ({ request, params }) => readCourse(db, await ownerOf(svc, request), params.course_id),
      {
        headers: UserHeaders,
        params: CourseIdParams,
        detail: {
          summary: "One course with its full chapters",
          description: "While the course is generating, chapters holds only the finished chapters.",
          tags: ["courses"],
        },
        response: { 200: Course, ...errors("NOT_FOUND", "FORBIDDEN") },
      },
    )
    .delete(
      "/v2/courses/:course_id",
      async ({ request, params, set }) => {
        await deleteCourse({ ...svc, db }, await ownerOf(svc, request), params.course_id, episodeBlobKeys);
        set.status = 204;
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        response: { 204: t.Void(), ...errors("NOT_FOUND", "FORBIDDEN", "COURSE_BUSY") },
        detail: {
          summary: "Delete a course",
          description:
            "Removes the course with its chapters, quizzes, chapter index entries, materials, podcast episodes and audio, and every learner's attempts, reviews and reads. The documents it was built from stay indexed. 409 COURSE_BUSY while a job of the course (its generation or a podcast episode) is queued or running.",
          tags: ["courses"],
        },
      },
    );
};
