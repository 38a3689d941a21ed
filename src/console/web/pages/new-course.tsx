/** New course: from a topic (grounded in the library) or from files and URLs, built live from the generation stream. */
import { useState } from "preact/hooks";
import { ApiError, request } from "../api.ts";
import { applyEvent, BuildProgress, type BuildState, initialBuild, type StreamEventData } from "../progress.tsx";
import { resumeAndFollow } from "../resume.ts";
import { readEvents } from "../stream.ts";
import { Choice, ErrorNote, Link, PageTitle, useAction } from "../ui.tsx";

const GOALS = [
  ["", "My saved goal"],
  ["exams", "Pass exams"],
  ["career", "Career"],
  ["curiosity", "Curiosity"],
  ["supplement", "Supplement a class"],
] as const;

const ORGANIZATIONS = [
  ["auto", "Automatic"],
  ["thematic_bridge", "By theme, across sources"],
  ["sequential_sections", "Source by source, in order"],
  ["separate_courses", "One course per source"],
] as const;

/** What a course is built from, with the words the form shows. */
const BUILD_FROM = [
  ["topic", "A topic covered by my library"],
  ["sources", "Files and URLs"],
] as const;

export function NewCourse() {
  const [from, setFrom] = useState<"topic" | "sources">("topic");
  const [build, setBuild] = useState<BuildState | null>(null);
  const { busy, error, run } = useAction();

  const start = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    let state = initialBuild;
    setBuild(state);
    await run(
      async () => {
        const res =
          from === "topic"
            ? await request("POST", "/v2/courses/generate?mode=stream", topicBody(form))
            : await request("POST", "/v2/courses/generate-from-files?mode=stream", sourcesForm(form));
        await readEvents(res, (event, data) => {
          state = applyEvent(state, event, data as StreamEventData);
          setBuild(state);
        });
      },
      (err) => {
        const ids = err instanceof ApiError ? (err.details as { course_id?: string } | undefined) : undefined;
        setBuild(
          ids?.course_id
            ? {
                ...state,
                courseId: ids.course_id,
                status: "failed",
                error: { code: (err as ApiError).code, message: (err as ApiError).message },
              }
            : null,
        );
      },
    );
  };

  const resume = async () => {
    if (!build?.courseId) return;
    const { courseId, title } = build;
    await run(() => resumeAndFollow(courseId, title, { onState: setBuild }));
  };

  return (
    <>
      <PageTitle text="New course" />
      <form onSubmit={start} class="panel">
        <fieldset>
          <legend>Build from</legend>
          {BUILD_FROM.map(([value, text]) => (
            <label key={value} class="inline">
              <input type="radio" name="from" value={value} checked={from === value} onChange={() => setFrom(value)} />{" "}
              {text}
            </label>
          ))}
        </fieldset>
        <label for="topic">{from === "topic" ? "Topic" : "Topic (optional)"}</label>
        <input id="topic" name="topic" minLength={3} maxLength={500} required={from === "topic"} />
        {from === "sources" && (
          <>
            <label for="course-files">Files</label>
            <input id="course-files" name="files" type="file" multiple />
            <label for="course-urls">Web pages (one URL a line)</label>
            <textarea id="course-urls" name="urls" rows={2} />
            <Choice id="organization" name="organization" label="Organization" options={ORGANIZATIONS} />
          </>
        )}
        <label for="chapters">Chapters</label>
        <input id="chapters" name="num_chapters" type="number" min={1} max={20} defaultValue="4" />
        <Choice id="goal" name="learning_goal" label="Learning goal" options={GOALS} />
        <button type="submit" disabled={busy}>
          Build the course
        </button>
      </form>
      <ErrorNote error={error} />
      {build && <BuildProgress state={build} />}
      {build?.status === "failed" && build.courseId && (
        <button type="button" onClick={resume} disabled={busy}>
          Resume the course
        </button>
      )}
      {build?.status === "completed" && build.courseId && (
        <p>
          <Link to={`/courses/${build.courseId}`} class="button">
            Open the course
          </Link>
        </p>
      )}
    </>
  );
}

function topicBody(form: FormData) {
  const goal = String(form.get("learning_goal") ?? "");
  return {
    topic: String(form.get("topic")),
    num_chapters: Number(form.get("num_chapters")),
    ...(goal ? { learning_goal: goal } : {}),
  };
}

function sourcesForm(form: FormData): FormData {
  const out = new FormData();
  for (const f of form.getAll("files")) if (f instanceof File && f.size > 0) out.append("files", f, f.name);
  const urls = String(form.get("urls") ?? "")
    .split(/\s+/)
    .filter(Boolean);
  if (urls.length) out.append("web_urls", JSON.stringify(urls));
  for (const name of ["topic", "organization", "num_chapters", "learning_goal"]) {
    const v = String(form.get(name) ?? "").trim();
    if (v) out.append(name, v);
  }
  return out;
}
