/**
 * Announcements that something changed, carrying ids only: whoever hears one re-reads the rows,
 * so an announcement can be missed or repeated without harm. On SQLite one process owns the
 * database, so the bus is in process; on PostgreSQL several nodes share it, so an announcement is
 * a NOTIFY sent in the writer's own transaction (delivered on commit, dropped on rollback) and each
 * node LISTENs on one dedicated connection. Bun's client reconnects that connection and listens
 * again; a subscriber's `onResync` then runs, since what was announced meanwhile is lost.
 */
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { type Sql, SqliteSql, sql } from "../db/sql.ts";
import { getOrCreate } from "../util.ts";

export const CHANNELS = {
  /** A job is ready to be claimed (queued, or handed back): idle workers claim. */
  jobQueued: "courseforge_job_queued",
  /** A job ended (completed or failed): its followers re-read it. */
  jobEnded: "courseforge_job_ended",
  /** A course generation event (course-relay.ts): the one channel that carries a payload, not an id. */
  courseEvent: "courseforge_course_event",
} as const;

export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

export type Unsubscribe = () => Promise<void>;

export interface EventBus {
  /**
   * Calls `onId` with each id announced on `channel` until the returned function is called, and
   * `onResync` when announcements may have been lost (the listening connection came back).
   */
  subscribe(channel: Channel, onId: (id: string) => void, onResync?: () => void): Promise<Unsubscribe>;
}

/** The in-process bus of one SQLite connection: the one process that writes it hears everything. */
class LocalBus implements EventBus {
  private listeners = new Map<Channel, Set<(id: string) => void>>();

  /** After the current synchronous work: the writer's transaction has ended by then. */
  emit(channel: Channel, id: string): void {
    queueMicrotask(() => {
      for (const listener of this.listeners.get(channel) ?? []) {
        // One listener's failure (a closed stream) must neither reach the writer nor stop the others.
        try {
          listener(id);
        } catch {
          /* the listener cleans itself up */
        }
      }
    });
  }

  async subscribe(channel: Channel, onId: (id: string) => void): Promise<Unsubscribe> {
    const set = getOrCreate(this.listeners, channel, () => new Set());
    set.add(onId);
    return async () => {
      set.delete(onId);
    };
  }
}

const localBuses = new WeakMap<Database, LocalBus>();

/** The bus of a SQLite connection; one per connection, as its seam is. */
export function localBus(sqlite: Database): LocalBus {
  return getOrCreate(localBuses, sqlite, () => new LocalBus());
}

/** LISTEN on `client`'s dedicated listening connection (opened by the first subscription). */
export function postgresBus(client: SQL): EventBus {
  return {
    async subscribe(channel, onId, onResync) {
      let listening = false;
      const subscription = await client.listen(channel, onId, () => {
        if (listening) onResync?.();
        listening = true;
      });
      return () => subscription.unlisten();
    },
  };
}

/** Announces `id` on `channel` with `db`'s transaction when it is one (NOTIFY on PostgreSQL). */
export async function announce(db: Sql, channel: Channel, id: string): Promise<void> {
  if (db instanceof SqliteSql) localBus(db.db).emit(channel, id);
  else await db.run(sql`SELECT pg_notify(${channel}, ${id})`);
}
