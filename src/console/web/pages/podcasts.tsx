/** Podcasts: generate an episode per chapter, follow each one's status, listen with the script as transcript. */
import { useEffect, useState } from "preact/hooks";
import { get, post } from "../api.ts";
import { CourseNav } from "../course-nav.tsx";
import { ErrorNote, Loading, PageTitle, useLoad } from "../ui.tsx";

interface Episode {
  id: string;
  chapter_order: number;
  title: string;
  status: string;
  audio_url: string | null;
  script: { turns: { speaker: string; text: string }[] } | null;
  duration_seconds: number | null;
  error?: { code: string; message: string };
}

export function Podcasts({ id }: { id: string }) {
  const list = useLoad(() => get<{ episodes: Episode[] }>(`/v2/courses/${id}/podcasts`), [id]);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState("");
  const generating = list.data?.episodes.some((e) => e.status === "generating") ?? false;
  useEffect(() => {
    if (!generating) return;
    // Each check counts against the tenant's rate limit: a few seconds apart is enough for episodes.
    const timer = setTimeout(list.reload, 3000);
    return () => clearTimeout(timer);
  }, [generating, list.data]);
  const generate = async () => {
    setError(null);
    try {
      const res = await post<{ message: string }>(`/v2/courses/${id}/podcasts/generate`);
      setMessage(res.message);
      list.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <PageTitle text="Podcasts" />
      <CourseNav id={id} current="/podcasts" />
      <p>
        <button type="button" onClick={generate} disabled={generating}>
          Generate episodes
        </button>
      </p>
      {message && (
        <p role="status" class="muted">
          {message}
        </p>
      )}
      <ErrorNote error={error ?? list.error} />
      {list.loading && !list.data && <Loading what="episodes" />}
      {list.data?.episodes.length === 0 && <p>No episodes yet.</p>}
      <ol class="episodes">
        {list.data?.episodes.map((e) => (
          <li key={e.id} class="card episode">
            <h2>
              Chapter {e.chapter_order + 1}: {e.title}
            </h2>
            <p>
              <span class={`status status-${e.status}`}>{e.status}</span>
              {e.duration_seconds != null && ` · ${Math.round(e.duration_seconds)} s`}
            </p>
            {e.error && (
              <p class="error">
                {e.error.message} ({e.error.code})
              </p>
            )}
            {e.status === "ready" && e.audio_url && (
              // biome-ignore lint/a11y/useMediaCaption: the whole transcript is printed beside the player (below)
              <audio controls preload="metadata" src={e.audio_url} aria-label={`Episode: ${e.title}`} />
            )}
            {e.script && (
              <details>
                <summary>Transcript</summary>
                <dl class="transcript">
                  {e.script.turns.map((t, i) => (
                    <div key={i}>
                      <dt>{t.speaker === "host" ? "Host" : "Guest"}</dt>
                      <dd>{t.text}</dd>
                    </div>
                  ))}
                </dl>
              </details>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}
