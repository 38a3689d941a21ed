/**
 * Course generation events across nodes. A job runs on whichever node claims it, and its outline,
 * chapter and progress events are published in that process (courses/events.ts); a stream or sync
 * request on another node follows the same job. On PostgreSQL each node sends the events it
 * publishes as a NOTIFY on one channel and delivers those it hears from other processes to its own
 * followers. These events carry what the rows do not hold between commits (a chapter running, the
 * progress), so the channel carries the event itself. Sends go one after another, in the order
 * published (courses/events.ts), and a job awaits them before it commits the course's end. An event over NOTIFY's payload limit (8000 bytes: an outline of very many chapters) is
 * not relayed; its followers still read the course's end from the rows (courses/follow.ts).
 */
import { deliver, type GenerationEvent, relayedSoFar, relayPublished } from "../courses/events.ts";
import { type Sql, sql } from "../db/sql.ts";
import type { Logger } from "../log.ts";
import { CHANNELS, type EventBus } from "./bus.ts";

const PAYLOAD_LIMIT = 7900;

/** This process: its own events reach its followers directly, so it skips them when it hears them. */
const PROCESS = crypto.randomUUID();

interface Relayed {
  from: string;
  event: GenerationEvent;
}

export interface CourseRelayDeps {
  sql: Sql;
  events: EventBus;
  log: Logger;
}

/** Starts relaying this process's course events to other nodes and theirs to it; returns the stop. */
export async function relayCourseEvents(svc: CourseRelayDeps): Promise<() => Promise<void>> {
  const unlisten = await svc.events.subscribe(CHANNELS.courseEvent, (payload) => {
    const relayed = JSON.parse(payload) as Relayed;
    if (relayed.from !== PROCESS) deliver(relayed.event);
  });
  const stopRelaying = relayPublished(async (event) => {
    const payload = JSON.stringify({ from: PROCESS, event } satisfies Relayed);
    if (Buffer.byteLength(payload) > PAYLOAD_LIMIT) return;
    try {
      await svc.sql.run(sql`SELECT pg_notify(${CHANNELS.courseEvent}, ${payload})`);
    } catch (err) {
      svc.log.warn("a course event could not be relayed to other nodes", {
        job_id: event.job_id,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  });
  return async () => {
    stopRelaying();
    await relayedSoFar();
    await unlisten();
  };
}
