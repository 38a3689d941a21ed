/**
 * Fixed one-minute windows aligned to the clock. Windows aligned to the minute make
 * X-RateLimit-Reset the same instant for every caller in that minute. On SQLite one server
 * process owns the data directory, so an in-process count is exact; on PostgreSQL several nodes
 * serve one database, so the counts are kept in it (src/db/rate-windows.ts) and a tenant's budget
 * is the same whichever node a request reaches.
 */
import type { Clock } from "../clock.ts";
import { dropPastWindows, takeFromWindow } from "../db/rate-windows.ts";
import type { Sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
  /** Seconds from the decision until the window resets (at least 1). */
  retryAfter: number;
}

/** Where the windows are counted. */
interface WindowCounts {
  /** Counts a call of `bucket` in `window`: its count with this call, or null when already at `limit` (not counted). */
  take(bucket: string, window: number, limit: number): Promise<number | null>;
  /** A new window began: the counts of earlier ones are no longer read. */
  begin(window: number): Promise<void>;
}

function memoryCounts(): WindowCounts {
  const counts = new Map<string, number>();
  return {
    async take(bucket, _window, limit) {
      const used = (counts.get(bucket) ?? 0) + 1;
      if (used > limit) return null;
      counts.set(bucket, used);
      return used;
    },
    async begin() {
      counts.clear();
    },
  };
}

const databaseCounts = (db: Sql): WindowCounts => ({
  take: (bucket, window, limit) => takeFromWindow(db, bucket, window, limit),
  begin: (window) => dropPastWindows(db, window),
});

export class RateLimiter {
  private window = 0;

  constructor(
    private readonly counts: WindowCounts,
    private readonly clock: Clock,
  ) {}

  async check(bucket: string, limit: number): Promise<RateDecision> {
    const nowMs = this.clock.now().getTime();
    const window = Math.floor(nowMs / 60_000);
    if (window !== this.window) {
      this.window = window;
      await this.counts.begin(window);
    }
    const used = await this.counts.take(bucket, window, limit);
    const reset = (window + 1) * 60;
    const retryAfter = Math.max(1, reset - Math.floor(nowMs / 1000));
    if (used === null || used > limit) return { allowed: false, limit, remaining: 0, reset, retryAfter };
    return { allowed: true, limit, remaining: limit - used, reset, retryAfter };
  }
}

/** The server's limiter: counted in memory on SQLite, in the database on PostgreSQL. */
export const rateLimiter = (db: Sql, clock: Clock): RateLimiter =>
  new RateLimiter(db.dialect === "postgres" ? databaseCounts(db) : memoryCounts(), clock);

export function rateHeaders(d: RateDecision): Record<string, string> {
  return {
    "x-ratelimit-limit": String(d.limit),
    "x-ratelimit-remaining": String(d.remaining),
    "x-ratelimit-reset": String(d.reset),
  };
}

/** The 429 for a refused decision, with Retry-After until its window resets. */
export function rateLimited(d: RateDecision, what: string): AppError {
  return new AppError("RATE_LIMITED", `${what} of ${d.limit} requests per minute exceeded`, undefined, {
    "retry-after": String(d.retryAfter),
  });
}
