/**
 * A course being built: chapters turning pending → running → completed, the overall percentage,
 * and the failure's reason. Fed by the generation stream's events or by polling the progress endpoint.
 */
import { ProgressBar } from "./ui.tsx";

export interface Failure {
  code: string;
  message: string;
}

export interface BuildState {
  courseId: string | null;
  title: string | null;
  pct: number;
  chapters: { order: number; title: string; status: string }[];
  status: "starting" | "generating" | "completed" | "failed";
  error: Failure | null;
}

export const initialBuild: BuildState = {
  courseId: null,
  title: null,
  pct: 0,
  chapters: [],
  status: "starting",
  error: null,
};

/** The fields the generation stream's events carry (each event a few of them). */
export interface StreamEventData {
  course_id?: string;
  progress_pct?: number;
  title?: string;
  chapters?: { order_index: number; title: string }[];
  order_index?: number;
  status?: string;
  error?: Failure;
}

/** GET /v2/courses/{id}/progress, the fields the console shows. */
export interface CourseProgress {
  course_id: string;
  progress_pct: number;
  chapters: BuildState["chapters"];
  course_status: string;
  error: Failure | null;
}

/** The state after one stream event (`job`, `outline`, `chapter`, `progress`, `completed`, `failed`). */
export function applyEvent(s: BuildState, event: string, data: StreamEventData): BuildState {
  switch (event) {
    case "job":
      return { ...s, courseId: data.course_id ?? s.courseId, pct: data.progress_pct ?? s.pct, status: "generating" };
    case "outline":
      return {
        ...s,
        title: data.title ?? s.title,
        chapters: (data.chapters ?? []).map((c) => ({
          order: c.order_index,
          title: c.title,
          status: "pending",
        })),
      };
    case "chapter":
      return {
        ...s,
        chapters: upsert(s.chapters, {
          order: data.order_index ?? 0,
          title: data.title ?? "",
          status: data.status ?? "pending",
        }),
      };
    case "progress":
      return { ...s, pct: data.progress_pct ?? s.pct };
    case "completed":
      return {
        ...s,
        courseId: data.course_id ?? s.courseId,
        title: data.title ?? s.title,
        pct: 100,
        status: "completed",
        chapters: s.chapters.map((c) => ({ ...c, status: "completed" })),
      };
    case "failed":
      return { ...s, courseId: data.course_id ?? s.courseId, status: "failed", error: data.error ?? null };
    default:
      return s;
  }
}

function upsert(list: BuildState["chapters"], c: BuildState["chapters"][number]) {
  const rest = list.filter((x) => x.order !== c.order);
  return [...rest, c].sort((a, b) => a.order - b.order);
}

/** The state read from GET /v2/courses/{id}/progress. */
export function fromProgress(p: CourseProgress, title: string | null): BuildState {
  return {
    courseId: p.course_id,
    title,
    pct: p.progress_pct,
    chapters: p.chapters,
    status: p.course_status === "completed" ? "completed" : p.course_status === "failed" ? "failed" : "generating",
    error: p.error,
  };
}

export function BuildProgress({ state }: { state: BuildState }) {
  return (
    <section class="panel build" aria-labelledby="build-heading">
      <h2 id="build-heading">{state.title ?? "Building the course"}</h2>
      <ProgressBar value={state.pct} label="Course progress" />
      <p role="status" class="muted">
        {state.status === "starting" && "Reading the sources…"}
        {state.status === "generating" && (state.chapters.length ? "Writing chapters…" : "Planning the chapters…")}
        {state.status === "completed" && "The course is ready."}
        {state.status === "failed" && "The course could not be finished."}
      </p>
      {state.chapters.length > 0 && (
        <ol class="chapters-progress">
          {state.chapters.map((c) => (
            <li key={c.order} data-status={c.status}>
              <span class={`status status-${c.status}`}>{c.status}</span> {c.title}
            </li>
          ))}
        </ol>
      )}
      {state.error && (
        <p class="error" role="alert">
          Why it failed: {state.error.message} ({state.error.code})
        </p>
      )}
    </section>
  );
}
