/** Scores as shares: one rule for "how much of it", whatever is counted (an attempt's points, chapters done). */

/** `part` of `whole` (0–1); an empty whole counts as 1, so nothing divides by zero. */
export const share = (part: number, whole: number) => part / Math.max(1, whole);

/** An attempt's score as a whole percent, rounded. */
export const percent = (score: number, total: number) => Math.round(share(score, total) * 100);
