/**
 * Fixed one-minute windows aligned to the clock, counted in memory. One server process owns a
 * data directory, so an in-process counter is exact; windows aligned to the minute make
 * X-RateLimit-Reset the same instant for every caller in that minute.
 */
import type { Clock } from "../clock.ts";
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

export class RateLimiter {
  private window = 0;
  private counts = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  check(bucket: string, limit: number): RateDecision {
    const nowMs = this.clock.now().getTime();
    const window = Math.floor(nowMs / 60_000);
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
    }
    const used = (this.counts.get(bucket) ?? 0) + 1;
    const reset = (window + 1) * 60;
    const retryAfter = Math.max(1, reset - Math.floor(nowMs / 1000));
    if (used > limit) return { allowed: false, limit, remaining: 0, reset, retryAfter };
    this.counts.set(bucket, used);
    return { allowed: true, limit, remaining: limit - used, reset, retryAfter };
  }
}

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
