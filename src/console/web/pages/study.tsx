/** The study guide, and study notes: generate with options, read, download as Markdown. */
import { useState } from "preact/hooks";
import { ApiError, get, post } from "../api.ts";
import { CourseNav } from "../course-nav.tsx";
import { Choice, ErrorNote, Loading, Markdown, PageTitle, useAction, useLoad } from "../ui.tsx";

type Section = { heading: string; items?: { term: string; definition: string }[]; bullets?: string[]; body?: string };

interface Notes {
  notes: string;
}

/** The notes options, as the spec names them, with the words the form shows. */
const NOTES_OPTIONS = [
  {
    name: "notes-goal",
    label: "Goal",
    options: [
      ["exams", "Exams"],
      ["interviews", "Interviews"],
      ["practical", "Practical"],
    ],
  },
  {
    name: "notes-style",
    label: "Style",
    options: [
      ["clear_structured", "Clear and structured"],
      ["narrative", "Narrative"],
      ["concise", "Concise"],
    ],
  },
  {
    name: "notes-tone",
    label: "Tutor",
    options: [
      ["professor", "Professor"],
      ["mentor", "Mentor"],
      ["peer", "Peer"],
    ],
  },
] as const;

export function Study({ id }: { id: string }) {
  const guide = useLoad(
    () =>
      get<{ study_guide: { title: string; sections: Section[] } | null; message?: string }>(
        `/v2/courses/${id}/study-guide`,
      ),
    [id],
  );
  const stored = useLoad(
    () =>
      get<Notes>(`/v2/courses/${id}/notes`).catch((e) =>
        e instanceof ApiError && e.status === 404 ? null : Promise.reject(e),
      ),
    [id],
  );
  const [notes, setNotes] = useState<Notes | null>(null);
  const { busy, error, run } = useAction();
  const shown = notes ?? stored.data;
  const generate = (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    return run(async () =>
      setNotes(
        await post<Notes>(`/v2/courses/${id}/generate-notes`, {
          learning_goal: f.get("notes-goal"),
          learning_style: f.get("notes-style"),
          tutor_tone: f.get("notes-tone"),
        }),
      ),
    );
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([shown!.notes], { type: "text/markdown" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "notes.md";
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const g = guide.data?.study_guide;
  return (
    <>
      <PageTitle text="Study guide & notes" />
      <CourseNav id={id} current="/study" />
      <section aria-labelledby="guide-heading">
        <h2 id="guide-heading">{g?.title ?? "Study guide"}</h2>
        <ErrorNote error={guide.error} />
        {guide.loading && !guide.data && <Loading what="the study guide" />}
        {guide.data && !g && <p>{guide.data.message}</p>}
        {g?.sections.map((s, i) => (
          <section key={i} class="guide-section">
            <h3>{s.heading}</h3>
            {s.items && (
              <dl>
                {s.items.map((it, k) => (
                  <div key={k}>
                    <dt>{it.term}</dt>
                    <dd>{it.definition}</dd>
                  </div>
                ))}
              </dl>
            )}
            {s.bullets && (
              <ul>
                {s.bullets.map((b, k) => (
                  <li key={k}>{b}</li>
                ))}
              </ul>
            )}
            {s.body && <p>{s.body}</p>}
          </section>
        ))}
      </section>
      <section aria-labelledby="notes-heading">
        <h2 id="notes-heading">Study notes</h2>
        <form onSubmit={generate} class="panel row">
          {NOTES_OPTIONS.map(({ name, label, options }) => (
            <Choice key={name} id={name} name={name} label={label} options={options} />
          ))}
          <button type="submit" disabled={busy}>
            {busy ? "Writing notes…" : "Generate notes"}
          </button>
        </form>
        <ErrorNote error={error ?? stored.error} />
        {shown && (
          <>
            <button type="button" onClick={download}>
              Download notes (.md)
            </button>
            <Markdown text={shown.notes} class="prose notes" />
          </>
        )}
      </section>
    </>
  );
}
