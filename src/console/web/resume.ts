/** Resuming a failed course, then following it by polling its progress until it ends. */
import { get, post } from "./api.ts";
import { type BuildState, fromProgress } from "./progress.tsx";

export async function resumeAndFollow(courseId: string, title: string | null, onState: (s: BuildState) => void): Promise<BuildState> {
  await post(`/v2/courses/${courseId}/resume`);
  return follow(courseId, title, onState);
}

export async function follow(courseId: string, title: string | null, onState: (s: BuildState) => void): Promise<BuildState> {
  for (;;) {
    const state = fromProgress(await get(`/v2/courses/${courseId}/progress`), title);
    onState(state);
    if (state.status !== "generating") return state;
    await new Promise((r) => setTimeout(r, 1000));
  }
}
