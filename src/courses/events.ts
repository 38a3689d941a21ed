/**
 * In-process bus of generation events, keyed by job id. The worker publishes as a course is built;
 * sync requests and SSE streams of the same process follow it, and of other nodes through a relay. Nothing here is persisted: the
 * database is the record, and a follower that misses an event reads the state from there.
 */
import type { FailureReason } from "../errors.ts";
import { getOrCreate } from "../util.ts";

export interface ChapterRef {
  order_index: number;
  title: string;
}

export interface CourseUsage {
  model: string | null;
  engine: string | null;
  model_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/**
 * The usage record of a finished course: model use, the course's generation time (from its job's
 * creation), what it billed, and the month's courses on its key. Sync mode returns it and the
 * stream's `completed` event carries it, so both say the same of the same course.
 */
export interface UsageRecord extends CourseUsage {
  seconds: number;
  billed_usd: number;
  courses_used_this_month: number;
  courses_cap: number | null;
}

export type GenerationEvent =
  | {
      type: "document";
      job_id: string;
      course_id: string;
      document: {
        id: string;
        filename: string;
        source_type: string;
        status: "ready" | "error";
        chunk_count: number;
        error: string | null;
      };
    }
  | {
      type: "outline";
      job_id: string;
      course_id: string;
      title: string;
      description: string | null;
      organization: string | null;
      chapters: ChapterRef[];
    }
  | {
      type: "chapter";
      job_id: string;
      course_id: string;
      order_index: number;
      title: string;
      status: "running" | "completed";
      completed_at: string | null;
    }
  | {
      type: "progress";
      job_id: string;
      course_id: string;
      progress_pct: number;
      completed_chapters: number;
      expected_chapters: number;
    }
  | { type: "completed"; job_id: string; course_id: string; title: string; chapters: ChapterRef[]; usage: CourseUsage }
  | { type: "failed"; job_id: string; course_id: string; error: FailureReason };

/** What a follower of a request sees: the worker's events, with the full usage record on completion. */
export type FollowedEvent =
  | Exclude<GenerationEvent, { type: "completed" }>
  | (Omit<Extract<GenerationEvent, { type: "completed" }>, "usage"> & { usage: UsageRecord });

type Listener = (event: GenerationEvent) => void;

const listeners = new Map<string, Set<Listener>>();

const relays = new Set<(event: GenerationEvent) => Promise<void>>();
let relayed: Promise<void> = Promise.resolve();

/**
 * Sends every event this process publishes to `relay` as well, one after another in the order
 * published (src/events/course-relay.ts: to the followers on other nodes of one PostgreSQL);
 * returns the function that stops it. `relay` handles its own failures.
 */
export function relayPublished(relay: (event: GenerationEvent) => Promise<void>): () => void {
  relays.add(relay);
  return () => relays.delete(relay);
}

export function publish(event: GenerationEvent): void {
  deliver(event);
  for (const relay of relays) relayed = relayed.then(() => relay(event));
}

/**
 * Resolves once every event published so far has been relayed. A job awaits it before it commits
 * the course's end: NOTIFY delivers in commit order, so another node's followers hear the
 * chapters before the end they then read from the rows.
 */
export function relayedSoFar(): Promise<void> {
  return relayed;
}

/** An event to this process's followers only: one published here, or relayed from another node. */
export function deliver(event: GenerationEvent): void {
  for (const listener of listeners.get(event.job_id) ?? []) {
    // A follower's failure (a closed stream) must never break the job that publishes.
    try {
      listener(event);
    } catch {
      /* the follower cleans itself up */
    }
  }
}

/** Calls `listener` with every event of `jobId` until the returned function is called. */
export function subscribe(jobId: string, listener: Listener): () => void {
  const set = getOrCreate(listeners, jobId, () => new Set());
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(jobId);
  };
}
