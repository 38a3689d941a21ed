/**
 * The time, as one provider built by the composition root and handed down to everything whose
 * behaviour depends on it (leases, retries, expiry, schedules, months), so tests can move it.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The clock's time as an ISO 8601 UTC string, the form stored in the database. */
export const isoNow = (clock: Clock): string => clock.now().toISOString();

/** The clock's time plus `seconds`, as stored in the database. */
export const isoAfter = (clock: Clock, seconds: number): string =>
  new Date(clock.now().getTime() + seconds * 1000).toISOString();
