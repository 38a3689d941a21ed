/** Small pieces every page uses: links, safe markdown, loading state, errors, page titles. */
import type { ComponentChildren, TargetedMouseEvent } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { describe } from "./api.ts";
import { markdownToSafeHtml } from "./markdown.ts";
import { BASE, navigate, navigations } from "./router.ts";

export function Link(props: { to: string; children: ComponentChildren; class?: string; current?: boolean }) {
  const onClick = (e: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={BASE + props.to} class={props.class} onClick={onClick} aria-current={props.current ? "page" : undefined}>
      {props.children}
    </a>
  );
}

export function Markdown({ text, class: cls }: { text: string; class?: string }) {
  return <div class={cls ?? "prose"} dangerouslySetInnerHTML={{ __html: markdownToSafeHtml(text) }} />;
}

/** The page's heading; it names the tab and takes focus after navigation, so screen readers announce the new page. */
export function PageTitle({ children, text }: { children?: ComponentChildren; text: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${text} · courseforge`;
    if (navigations > 0 && (document.activeElement === document.body || document.activeElement?.closest("nav")))
      ref.current?.focus();
  }, [text]);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children ?? text}
    </h1>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {describe(error)}
    </p>
  );
}

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change (and on reload()), keeping the last data while reloading. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (d) => {
        if (!live) return;
        setData(d);
        setError(null);
        setLoading(false);
      },
      (e) => {
        if (!live) return;
        setError(e);
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { data, error, loading, reload: () => setTick((t) => t + 1) };
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function ProgressBar({ value, label }: { value: number; label: string }) {
  return (
    <div class="progress">
      <progress max={100} value={Math.round(value)} aria-label={label} />
      <span>{Math.round(value)}%</span>
    </div>
  );
}

/**
 * What a form's button runs: `busy` while it runs, and its failure kept as `error` (cleared when it
 * runs again); `onError` may show more of a failure.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (action: () => Promise<unknown>, onError?: (err: unknown) => void) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
      onError?.(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** A table's column headings, one per entry. */
export function TableHead({ columns }: { columns: ComponentChildren[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c, i) => (
          <th key={i} scope="col">
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A wide table that scrolls sideways on a phone; the scrolling region is reachable by keyboard. */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard (axe: scrollable-region-focusable)
    <section class="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

/** A labelled drop-down of `[value, text]` options, read by its form under `name`. */
export function Choice(props: {
  id: string;
  name: string;
  label: string;
  options: readonly (readonly [string, string])[];
}) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name}>
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </>
  );
}
