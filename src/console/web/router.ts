/** Console routes are paths under /app/; links change them without reloading the page. */
import { useEffect, useState } from "preact/hooks";

export const BASE = "/app";

/** Navigations within the console so far: the first page keeps the browser's own focus, later ones move it to their heading. */
export let navigations = 0;
addEventListener("popstate", () => navigations++);

export function navigate(path: string): void {
  history.pushState(null, "", BASE + path);
  dispatchEvent(new PopStateEvent("popstate"));
}

/** The current path below /app ("/" for the home page). */
export function usePath(): string {
  const read = () => location.pathname.slice(BASE.length) || "/";
  const [path, setPath] = useState(read);
  useEffect(() => {
    const update = () => setPath(read());
    addEventListener("popstate", update);
    return () => removeEventListener("popstate", update);
  }, []);
  return path;
}

/** A path part as written, or null when its percent-escapes are not UTF-8 ("%E0"). */
function decodePart(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/**
 * `pattern` such as "/courses/:id/chapters/:n" against a path: the named parts, or null (an
 * undecodable part matches nothing, so the page shows its not-found view).
 */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split("/");
  const a = path.replace(/\/+$/, "").split("/");
  if (p.length !== a.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i]!.startsWith(":")) {
      const value = decodePart(a[i]!);
      if (value === null) return null;
      params[p[i]!.slice(1)] = value;
    } else if (p[i] !== a[i]) return null;
  }
  return params;
}
