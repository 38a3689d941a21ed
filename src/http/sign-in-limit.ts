/**
 * Limits on failed console sign-ins. Failures are counted per client address and per key prefix
 * tried; past either limit a failed attempt answers 429 instead of 401. A right key is checked
 * like any other and always signs in, so one address's (or one proxy's users') failures never
 * lock anyone else out. Keys are 40 random base62 characters: the limit is against floods, not
 * guessing. They are counted by the server's limiter (in the database on PostgreSQL, so the
 * limit holds across nodes), in buckets of their own.
 */
import type { AppError } from "../errors.ts";
import { type RateLimiter, rateLimited } from "./rate-limit.ts";

/** The part of a key that names it (as `keys list` shows it); for a string of another shape, its start. */
function triedPrefix(apiKey: string): string {
  const m = /^sk-service-(test|production)-/.exec(apiKey);
  return m ? apiKey.slice(0, m[0].length + 8) : apiKey.slice(0, 16);
}

export function signInLimits(failuresPerMinute: number, limiter: RateLimiter) {
  return {
    /** The error a failed sign-in answers: the 401 as it is, or a 429 once its address or key prefix is past the limit. */
    async failed(address: string, apiKey: string, err: AppError): Promise<AppError> {
      const byAddress = await limiter.check(`sign-in:address:${address}`, failuresPerMinute);
      const byKey = await limiter.check(`sign-in:key:${triedPrefix(apiKey)}`, failuresPerMinute);
      const refused = !byAddress.allowed ? byAddress : !byKey.allowed ? byKey : null;
      return refused ? rateLimited(refused, "Failed sign-ins") : err;
    },
  };
}
