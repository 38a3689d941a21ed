/**
 * What the web console's course-building panel (src/console/web/progress.tsx) tells its reader
 * about a course's progress record: the failure line it renders, read from a DOM (linkedom) with
 * the panel rendered by preact, as in the browser. The DOM globals the panel needs are set only
 * while it renders.
 */
import { parseHTML } from "linkedom";

export async function consoleFailureLine(progress: Record<string, unknown>): Promise<string | null> {
  const { window, document } = parseHTML("<!doctype html><html><body><main></main></body></html>");
  const saved = { window: (globalThis as any).window, document: (globalThis as any).document };
  Object.assign(globalThis, { window, document });
  try {
    const { h, render } = await import("preact");
    const { BuildProgress, fromProgress } = await import("../../src/console/web/progress.tsx");
    const root = document.querySelector("main")!;
    render(h(BuildProgress, { state: fromProgress(progress as any, null) }), root as any);
    return root.querySelector("[role=alert]")?.textContent ?? null;
  } finally {
    Object.assign(globalThis, saved);
  }
}
