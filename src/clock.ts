/** The time, as one provider handed down by the composition root where behaviour depends on it (URL expiry). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
