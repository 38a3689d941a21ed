/** A citation: a button that opens the cited passage, with its document and page, in a dialog. */
import { useId, useRef } from "preact/hooks";
import type { Source } from "./course-data.ts";

export const sourceLabel = (s: Source) =>
  [
    s.filename ?? s.title ?? s.url ?? "Source",
    s.page != null ? `page ${s.page}` : null,
    s.timestamp_seconds != null ? `at ${formatTime(s.timestamp_seconds)}` : null,
  ]
    .filter(Boolean)
    .join(", ");

const formatTime = (t: number) => `${Math.floor(t / 60)}:${String(Math.floor(t % 60)).padStart(2, "0")}`;

export function Citation({ source, n }: { source: Source; n: number }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <button
        type="button"
        class="cite"
        onClick={() => dialog.current?.showModal()}
        aria-label={`Source ${n}: ${sourceLabel(source)}`}
      >
        [{n}]
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} class="passage">
        <h2 id={titleId}>Source {n}</h2>
        <p class="muted">{sourceLabel(source)}</p>
        {/* Passages are document text: shown as text, never as markup. */}
        <blockquote>{source.excerpt ?? "No excerpt was kept for this source."}</blockquote>
        <form method="dialog">
          <button type="submit" autofocus>
            Close
          </button>
        </form>
      </dialog>
    </>
  );
}
