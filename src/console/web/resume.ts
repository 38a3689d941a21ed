/** Resuming a failed course, then following it by polling its progress until it ends. */
import { ApiError, get, post } from "./api.ts";
import { type BuildState, type CourseProgress, fromProgress } from "./progress.tsx";

type Follower = { onState: (s: BuildState) => void; signal?: AbortSignal };

export async function resumeAndFollow(courseId: string, title: string | null, f: Follower): Promise<BuildState> {
  await post(`/v2/courses/${courseId}/resume`);
  return follow(courseId, title, f);
}

// Every poll counts against the tenant's rate limit (60 a minute by default), shared with the API's other clients.
const POLL_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls while the course generates; stops early when `signal` aborts (the page was left). */
export async function follow(
  courseId: string,
  title: string | null,
  { onState, signal }: Follower,
): Promise<BuildState> {
  for (;;) {
    let progress: CourseProgress;
    try {
      progress = await get<CourseProgress>(`/v2/courses/${courseId}/progress`);
    } catch (err) {
      // Over the rate limit: wait for the next window rather than give up on the course.
      if (!(err instanceof ApiError && err.status === 429)) throw err;
      await sleep(POLL_MS * 5);
      continue;
    }
    const state = fromProgress(progress, title);
    if (signal?.aborted) return state;
    onState(state);
    if (state.status !== "generating") return state;
    await sleep(POLL_MS);
  }
}
