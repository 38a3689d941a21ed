/**
 * Flashcards by spaced repetition: the cards due now come first, in the server's review order; a
 * card is flipped, rated (again/hard/good/easy) and the server schedules its next review with
 * FSRS. When nothing is due the page says when the next card is, and the whole deck can still be
 * practised.
 */
import { useState } from "preact/hooks";
import { get, post } from "../api.ts";
import { CourseNav } from "../course-nav.tsx";
import { when } from "../time.ts";
import { ErrorNote, Loading, PageTitle, useLoad } from "../ui.tsx";

const RATINGS = [
  ["again", "Again"],
  ["hard", "Hard"],
  ["good", "Good"],
  ["easy", "Easy"],
] as const;

interface Card {
  card_index: number;
  front: string;
  back: string;
}
interface Due {
  deck_title: string;
  total_due: number;
  cards: Card[];
  next_due: string | null;
}
interface Session {
  deckTitle: string;
  deckSize: number;
  all: Card[];
  due: Due;
}

/** The deck (generated once, then cached by the server) and what is due now. */
async function loadSession(id: string): Promise<Session> {
  const { flashcards } = await post<{ flashcards: { deck_title: string; cards: { front: string; back: string }[] } }>(
    `/v2/courses/${id}/generate-flashcards`,
  );
  const due = await get<Due>(`/v2/courses/${id}/flashcards/due?limit=500`);
  return {
    deckTitle: flashcards.deck_title,
    deckSize: flashcards.cards.length,
    all: flashcards.cards.map((c, card_index) => ({ card_index, ...c })),
    due,
  };
}

export function Flashcards({ id }: { id: string }) {
  const session = useLoad(() => loadSession(id), [id]);
  const [queue, setQueue] = useState<Card[] | null>(null);
  const [flipped, setFlipped] = useState(false);
  const [rated, setRated] = useState(0);
  const [lastDue, setLastDue] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const s = session.data;
  const cards = queue ?? s?.due.cards ?? [];
  const card = cards[0];
  const rate = async (rating: string) => {
    if (!card) return;
    setError(null);
    try {
      const r = await post<{ due: string }>(`/v2/courses/${id}/flashcards/reviews`, {
        card_index: card.card_index,
        rating,
      });
      setLastDue(r.due);
      setRated((k) => k + 1);
      setFlipped(false);
      setQueue(cards.slice(1));
    } catch (err) {
      setError(err);
    }
  };
  const practiseAll = () => {
    setFlipped(false);
    setQueue(s?.all ?? []);
  };
  const caughtUp = () => {
    setQueue(null);
    session.reload();
  };
  return (
    <>
      <PageTitle text={s?.deckTitle ?? "Flashcards"} />
      <CourseNav id={id} current="/flashcards" />
      <ErrorNote error={session.error ?? error} />
      {session.loading && !s && <Loading what="the flashcards" />}
      {s && s.deckSize === 0 && <p>This course has no flashcards.</p>}
      {s && s.deckSize > 0 && (
        <p class="muted due-summary" role="status">
          {queue === null ? `${s.due.total_due} of ${s.deckSize} cards due now` : `${cards.length} left in this round`}{" "}
          · rated {rated}
          {lastDue && ` · that card comes back ${when(lastDue)}`}
        </p>
      )}
      {card && (
        <>
          <button type="button" class={`flashcard ${flipped ? "flipped" : ""}`} onClick={() => setFlipped((f) => !f)}>
            <span class="sr-only">{flipped ? "Card back:" : "Card front:"} </span>
            <span class="face">{flipped ? card.back : card.front}</span>
          </button>
          <p class="muted">Press the card to {flipped ? "see the front again" : "turn it over"}.</p>
          {flipped && (
            <fieldset class="rate">
              <legend>How well did you know it?</legend>
              {RATINGS.map(([rating, label]) => (
                <button key={rating} type="button" onClick={() => rate(rating)}>
                  {label}
                </button>
              ))}
            </fieldset>
          )}
        </>
      )}
      {s && s.deckSize > 0 && !card && (
        <div class="caught-up">
          <p>
            Nothing is due now.
            {s.due.next_due && queue === null && ` The next card is due ${when(s.due.next_due)}.`}
          </p>
          <p class="chapter-actions">
            {queue !== null && (
              <button type="button" onClick={caughtUp}>
                See what is due
              </button>
            )}
            <button type="button" onClick={practiseAll}>
              Practise all {s.deckSize} cards
            </button>
          </p>
        </div>
      )}
    </>
  );
}
