/**
 * Spaced repetition with FSRS (ts-fsrs): a card's next state from its current one, a rating and
 * the time of the review. Default FSRS parameters with its short-term learning steps (a new or
 * lapsed card comes back within minutes); no fuzz, so the same reviews always give the same schedule.
 */
import {
  type Card,
  type CardInput,
  createEmptyCard,
  fsrs,
  type Grade,
  generatorParameters,
  Rating,
  State,
} from "ts-fsrs";

export const RATINGS = ["again", "hard", "good", "easy"] as const;
export type RatingName = (typeof RATINGS)[number];

const GRADES: Record<RatingName, Grade> = {
  again: Rating.Again,
  hard: Rating.Hard,
  good: Rating.Good,
  easy: Rating.Easy,
};

export type CardStateName = "new" | "learning" | "review" | "relearning";
const STATE_NAMES: Record<State, CardStateName> = {
  [State.New]: "new",
  [State.Learning]: "learning",
  [State.Review]: "review",
  [State.Relearning]: "relearning",
};

const scheduler = fsrs(generatorParameters({ enable_fuzz: false }));

/** A stored card (JSON, dates as ISO strings) or a new one, rated at `now`. */
export function schedule(stored: CardInput | null, rating: RatingName, now: Date): Card {
  return scheduler.next(stored ?? createEmptyCard(now), now, GRADES[rating]).card;
}

export const stateName = (card: Pick<Card, "state"> | Pick<CardInput, "state">): CardStateName =>
  typeof card.state === "string" ? (card.state.toLowerCase() as CardStateName) : STATE_NAMES[card.state];
