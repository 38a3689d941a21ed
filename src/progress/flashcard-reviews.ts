/** A learner's flashcard reviews: each rating reschedules its card, and the cards due at a time, in order. */
import type { Card, CardInput } from "ts-fsrs";
import type { CourseOwner } from "../courses/read.ts";
import { type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import type { StoredDeck } from "../materials/flashcards.ts";
import { newId } from "../util.ts";
import { courseDeck } from "./decks.ts";
import { type CardStateName, type RatingName, schedule, stateName } from "./scheduling.ts";
import type { ProgressStores } from "./stores.ts";

interface ScheduleRow {
  card_index: number;
  card: string;
  due: string;
}

export interface CardSchedule {
  card_index: number;
  front: string;
  back: string;
  /** Null for a card never reviewed: it is due from the start. */
  due: string | null;
  state: CardStateName;
  reps: number;
  lapses: number;
  last_review: string | null;
}

async function schedules(db: Sql, userId: string, deckId: string): Promise<Map<number, ScheduleRow>> {
  const rows = await db.all<ScheduleRow>(
    sql`SELECT card_index, card, due FROM flashcard_schedules WHERE user_id = ${userId} AND deck_id = ${deckId}`,
  );
  return new Map(rows.map((r) => [r.card_index, r]));
}

function describe(deck: StoredDeck, index: number, row: ScheduleRow | undefined): CardSchedule {
  const card = deck.deck.cards[index]!;
  const state = row ? (JSON.parse(row.card) as CardInput) : null;
  return {
    card_index: index,
    front: card.front,
    back: card.back,
    due: row?.due ?? null,
    state: state ? stateName(state) : "new",
    reps: state?.reps ?? 0,
    lapses: state?.lapses ?? 0,
    last_review: state?.last_review ? new Date(state.last_review).toISOString() : null,
  };
}

/**
 * Rates one card of a deck: its stored state rescheduled and the review logged, in one
 * transaction. The card's lock is taken before its state is read, so two reviews of one card at
 * once (two tabs, two nodes) are applied one after the other, the second from the first's state.
 */
export function recordReview(
  db: Sql,
  owner: CourseOwner,
  at: { courseId: string; deckId: string; cardIndex: number },
  rating: RatingName,
  now: Date,
): Promise<{ next: Card; due: string }> {
  return db.transaction(async (tx) => {
    await tx.lock(`flashcard:${owner.userId}:${at.deckId}:${at.cardIndex}`);
    const row = await tx.get<{ card: string }>(
      sql`SELECT card FROM flashcard_schedules
           WHERE user_id = ${owner.userId} AND deck_id = ${at.deckId} AND card_index = ${at.cardIndex}`,
    );
    const next = schedule(row ? (JSON.parse(row.card) as CardInput) : null, rating, now);
    const due = next.due.toISOString();
    await tx.run(
      sql`INSERT INTO flashcard_schedules (tenant_id, user_id, course_id, deck_id, card_index, card, due, updated_at)
          VALUES (${owner.tenantId}, ${owner.userId}, ${at.courseId}, ${at.deckId}, ${at.cardIndex}, ${JSON.stringify(next)}, ${due}, ${now.toISOString()})
          ON CONFLICT (user_id, deck_id, card_index) DO UPDATE SET card = excluded.card, due = excluded.due, updated_at = excluded.updated_at`,
    );
    await tx.run(
      sql`INSERT INTO flashcard_reviews (id, tenant_id, user_id, course_id, deck_id, card_index, rating, reviewed_at, due)
          VALUES (${newId()}, ${owner.tenantId}, ${owner.userId}, ${at.courseId}, ${at.deckId}, ${at.cardIndex}, ${rating}, ${now.toISOString()}, ${due})`,
    );
    return { next, due };
  });
}

export async function reviewCard(
  stores: ProgressStores,
  owner: CourseOwner,
  courseId: string,
  input: { cardIndex: number; rating: RatingName; modelKey?: string },
  now: Date,
) {
  const deck = await courseDeck(stores.db, courseId, input.modelKey);
  const size = deck.deck.cards.length;
  if (input.cardIndex >= size) {
    const message = `card_index must be the index of one of the deck's ${size} cards (0-${size - 1})`;
    throw new AppError("VALIDATION_ERROR", message, [
      { path: "/card_index", field: "card_index", rule: "card_in_deck", message, cards: size },
    ]);
  }
  const at = { courseId, deckId: deck.id, cardIndex: input.cardIndex };
  const { next, due } = await recordReview(stores.db, owner, at, input.rating, now);
  const stored = { card_index: input.cardIndex, card: JSON.stringify(next), due };
  return {
    ...describe(deck, input.cardIndex, stored),
    rating: input.rating,
    reviewed_at: now.toISOString(),
    scheduled_days: next.scheduled_days,
  };
}

/** How a deck stands for a learner at `now`: what is due, in order, and when the next card comes due. */
export async function deckStanding(db: Sql, userId: string, deck: StoredDeck, now: Date) {
  const rows = await schedules(db, userId, deck.id);
  const cards = deck.deck.cards.map((_, i) => describe(deck, i, rows.get(i)));
  const at = now.toISOString();
  // Reviewed cards whose time has come, most overdue first; then new cards in deck order.
  const dueReviewed = cards
    .filter((c) => c.due !== null && c.due <= at)
    .sort((a, b) => a.due!.localeCompare(b.due!) || a.card_index - b.card_index);
  const fresh = cards.filter((c) => c.due === null);
  const upcoming = cards
    .filter((c) => c.due !== null && c.due > at)
    .map((c) => c.due!)
    .sort();
  return { due: [...dueReviewed, ...fresh], total: cards.length, reviewed: rows.size, next_due: upcoming[0] ?? null };
}

export async function dueCards(
  stores: ProgressStores,
  owner: CourseOwner,
  courseId: string,
  opts: { modelKey?: string; limit?: number } = {},
  now: Date,
) {
  const deck = await courseDeck(stores.db, courseId, opts.modelKey);
  const standing = await deckStanding(stores.db, owner.userId, deck, now);
  return {
    course_id: courseId,
    deck_title: deck.deck.deck_title,
    model: deck.model,
    now: now.toISOString(),
    total_due: standing.due.length,
    cards: standing.due.slice(0, opts.limit ?? standing.due.length),
    next_due: standing.next_due,
  };
}
