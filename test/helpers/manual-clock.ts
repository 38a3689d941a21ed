/** A clock that stands still until a test moves it, so retries, leases and expiry are tested without sleeping. */
import type { Clock } from "../../src/clock.ts";

export interface ManualClock extends Clock {
  /** Moves the time forward by `ms`. */
  advance(ms: number): void;
}

/** Starts at `start` (by default the real time now, so rows it stamps sort with others written now). */
export function manualClock(start: Date = new Date()): ManualClock {
  let ms = start.getTime();
  return {
    now: () => new Date(ms),
    advance: (by) => {
      ms += by;
    },
  };
}
