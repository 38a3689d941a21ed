/** Request and response schemas of course generation (validation and OpenAPI). */
import { type TSchema, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { t } from "elysia";
import { AppError } from "../../errors.ts";
import { errorResponses, JsonInteger, LearningGoal } from "../schemas.ts";

const Mode = t.Union([t.Literal("async"), t.Literal("sync"), t.Literal("stream")], {
  description: "async (default): a Job at once; sync: blocks until the course is done; stream: Server-Sent Events",
});
export const ModeQuery = t.Object({ mode: t.Optional(Mode) });
export type Mode = "async" | "sync" | "stream";

const Organization = t.Union(
  [t.Literal("auto"), t.Literal("thematic_bridge"), t.Literal("sequential_sections"), t.Literal("separate_courses")],
  {
    description:
      "auto picks thematic_bridge for related sources, sequential_sections otherwise; separate_courses makes one course per source",
  },
);

const COURSE_MODEL_KEY =
  'The model that writes the course (a model name offered by the server, or "extractive"); it stays the course\'s model, which its materials use by default. Default: the configured model';

export const TopicBody = t.Object({
  topic: t.String({ minLength: 3, maxLength: 500 }),
  num_chapters: t.Optional(JsonInteger({ minimum: 1, maximum: 20, default: 4 })),
  search_enabled: t.Optional(t.Boolean({ default: false })),
  learning_goal: t.Optional(LearningGoal),
  model_key: t.Optional(t.String({ minLength: 1, maxLength: 200, description: COURSE_MODEL_KEY })),
});

/**
 * The text fields of the generate-from-files form, converted and checked with TypeBox itself after
 * multipart parsing (Elysia's own `t` numerics accept strings, which Value.Convert then keeps).
 */
export const FilesForm = Type.Object({
  topic: Type.Optional(Type.String({ minLength: 3, maxLength: 500 })),
  organization: Type.Optional(Organization),
  num_chapters: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
  search_enabled: Type.Optional(Type.Boolean()),
  learning_goal: Type.Optional(LearningGoal),
  model_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: COURSE_MODEL_KEY })),
  youtube_urls: Type.Optional(Type.String({ description: "JSON array of YouTube video URLs" })),
  web_urls: Type.Optional(Type.String({ description: "JSON array of web page URLs" })),
});

const Failure = t.Object({ code: t.String(), message: t.String(), request_id: t.Nullable(t.String()) });
export const Job = t.Object(
  {
    id: t.String(),
    type: t.String({ description: "course.generate" }),
    status: t.String({ description: "queued, running, completed or failed" }),
    course_id: t.Nullable(t.String()),
    course_status: t.Nullable(t.String({ description: "generating, completed or failed" })),
    progress_pct: t.Integer({ minimum: 0, maximum: 100 }),
    expected_chapters: t.Integer(),
    completed_chapters: t.Integer(),
    attempts: t.Integer(),
    error: t.Nullable(Failure),
    created_at: t.String(),
    updated_at: t.String(),
    started_at: t.Nullable(t.String()),
    finished_at: t.Nullable(t.String()),
    links: t.Record(t.String(), t.String()),
  },
  { description: "A background generation job" },
);
export const JobList = t.Object(
  { jobs: t.Array(Job), count: t.Integer() },
  { description: "separate_courses: one job per course" },
);
const ChapterRef = t.Object({ order_index: t.Integer(), title: t.String() });
const SyncCourse = t.Object({ id: t.String(), title: t.String(), chapters: t.Array(ChapterRef) });
const Usage = t.Object({
  model: t.Nullable(t.String()),
  engine: t.Nullable(t.String()),
  model_calls: t.Integer(),
  prompt_tokens: t.Integer(),
  completion_tokens: t.Integer(),
  seconds: t.Number(),
  billed_usd: t.Number(),
  courses_used_this_month: t.Integer(),
  courses_cap: t.Nullable(t.Integer({ description: "Monthly course cap of a test key; null for production keys" })),
});
const SyncResult = t.Object({
  status: t.Literal("completed"),
  mode: t.Literal("sync"),
  course: t.Optional(SyncCourse),
  courses: t.Optional(t.Array(SyncCourse, { description: "separate_courses: every course, in source order" })),
  usage: Usage,
});
export const Progress = t.Object({
  course_id: t.String(),
  course_status: t.String(),
  job_id: t.Nullable(t.String()),
  job_status: t.Nullable(t.String()),
  progress_pct: t.Integer({ minimum: 0, maximum: 100 }),
  expected_chapters: t.Integer(),
  completed_chapters: t.Integer(),
  chapters: t.Array(
    t.Object({ order: t.Integer(), title: t.String(), status: t.String(), completed_at: t.Nullable(t.String()) }),
  ),
  error: t.Nullable(Failure),
});
export const ResumeResponse = t.Object({
  course_id: t.String(),
  status: t.Union([t.Literal("resuming"), t.Literal("completed")]),
  missing_chapters: t.Array(t.Integer()),
  total_chapters: t.Integer(),
  message: t.String(),
  job_id: t.Nullable(t.String()),
});

const jsonContent = (schema: TSchema) => ({ "application/json": { schema } });

/**
 * One route answers JSON (async, sync) or an event stream (stream), which Elysia's per-status
 * response schemas cannot type; the shapes are declared for OpenAPI here instead.
 */
export const generateResponses = (accepted: TSchema, ...declared: Parameters<typeof errorResponses>) => ({
  200: {
    description: "sync: the finished course and usage; stream: text/event-stream",
    content: {
      ...jsonContent(SyncResult),
      "text/event-stream": { schema: t.String({ description: "event: <name>\\ndata: <json>" }) },
    },
  },
  202: { description: "async: the Job (or jobs)", content: jsonContent(accepted) },
  ...errorResponses(...declared),
});

export const STREAM_DOC =
  "stream: text/event-stream with events `job` (the Job), `document` (a source ready or failed), `outline`, " +
  "`chapter` (running, then completed), `progress`, and finally `completed` (course + usage) or `failed` (error); " +
  "`: keepalive` comments in between. Closing the stream does not stop the generation.";

/** The text fields of a generate-from-files form, typed; 422 with every problem otherwise. */
export function parseFilesForm(fields: Record<string, string>) {
  const raw = Value.Convert(FilesForm, { ...fields });
  if (!Value.Check(FilesForm, raw)) {
    const details = [...Value.Errors(FilesForm, raw)]
      .slice(0, 20)
      .map((e) => ({ path: e.path || "/", message: e.message }));
    throw new AppError(
      "VALIDATION_ERROR",
      `Invalid form field ${details[0]?.path ?? ""}: ${details[0]?.message ?? "invalid"}`,
      details,
    );
  }
  return raw;
}
