/** Resuming a failed course, then following it by polling its progress until it ends. */
import { get, post } from "./api.ts";
import { type BuildState, fromProgress } from "./progress.tsx";

type Follower = { onState: (s: BuildState) => void; signal?: AbortSignal };

export async function resumeAndFollow(courseId: string, title: string | null, f: Follower): Promise<BuildState> {
  await post(`/v2/courses/${courseId}/resume`);
  return follow(courseId, title, f);
}

/** Polls every second while the course generates; stops early when `signal` aborts (the page was left). */
export async function follow(courseId: string, title: string | null, { onState, signal }: Follower): Promise<BuildState> {
  for (;;) {
    const state = fromProgress(await get(`/v2/courses/${courseId}/progress`), title);
    if (signal?.aborted) return state;
    onState(state);
    if (state.status !== "generating") return state;
    await new Promise((r) => setTimeout(r, 1000));
  }
}
