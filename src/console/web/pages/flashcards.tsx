/** Flashcards: flip a card, rate how well it was known (the server schedules its next review), go on to the next. */
import { useState } from "preact/hooks";
import { post } from "../api.ts";
import { CourseNav } from "../course-nav.tsx";
import { ErrorNote, Loading, PageTitle, useLoad } from "../ui.tsx";

const RATINGS = [
  ["again", "Again"],
  ["hard", "Hard"],
  ["good", "Good"],
  ["easy", "Easy"],
] as const;

interface Deck {
  deck_title: string;
  cards: { front: string; back: string }[];
}

export function Flashcards({ id }: { id: string }) {
  const deck = useLoad(() => post<{ flashcards: Deck }>(`/v2/courses/${id}/generate-flashcards`).then((r) => r.flashcards), [id]);
  const [index, setIndex] = useState(0);
  const [flipped, setFlipped] = useState(false);
  const [rated, setRated] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const cards = deck.data?.cards ?? [];
  const cardIndex = index % Math.max(cards.length, 1);
  const card = cards[cardIndex];
  const rate = async (rating: string) => {
    setError(null);
    try {
      await post(`/v2/courses/${id}/flashcards/reviews`, { card_index: cardIndex, rating });
      setRated((k) => k + 1);
      setFlipped(false);
      setIndex((i) => i + 1);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <PageTitle text={deck.data?.deck_title ?? "Flashcards"} />
      <CourseNav id={id} current="/flashcards" />
      <ErrorNote error={deck.error ?? error} />
      {deck.loading && !deck.data && <Loading what="the flashcards" />}
      {deck.data && cards.length === 0 && <p>This course has no flashcards.</p>}
      {card && (
        <>
          <p class="muted" role="status">
            Card {cardIndex + 1} of {cards.length} · rated {rated}
          </p>
          <button type="button" class={`flashcard ${flipped ? "flipped" : ""}`} onClick={() => setFlipped((f) => !f)}>
            <span class="sr-only">{flipped ? "Card back:" : "Card front:"} </span>
            <span class="face">{flipped ? card.back : card.front}</span>
          </button>
          <p class="muted">Press the card to {flipped ? "see the front again" : "turn it over"}.</p>
          {flipped && (
            <div class="rate" role="group" aria-label="How well did you know it?">
              {RATINGS.map(([rating, label]) => (
                <button key={rating} type="button" onClick={() => rate(rating)}>
                  {label}
                </button>
              ))}
            </div>
          )}
        </>
      )}
    </>
  );
}
