/**
 * Ask: a question about the course, its answer with the passages it rests on. A low-confidence
 * reply is the server's abstention sentence, shown as the note it is rather than as an answer.
 */
import { useState } from "preact/hooks";
import { post } from "../api.ts";
import { CourseNav } from "../course-nav.tsx";
import { ErrorNote, PageTitle, useAction } from "../ui.tsx";

interface Answer {
  answer: string;
  sources: { text: string; score: number }[];
  low_confidence: boolean;
}

export function Ask({ id }: { id: string }) {
  const [question, setQuestion] = useState("");
  const [answer, setAnswer] = useState<Answer | null>(null);
  const { busy, error, run } = useAction();
  const ask = (e: Event) => {
    e.preventDefault();
    return run(async () => setAnswer(await post<Answer>(`/v2/courses/${id}/ask`, { question })));
  };
  return (
    <>
      <PageTitle text="Ask about the course" />
      <CourseNav id={id} current="/ask" />
      <form onSubmit={ask} class="panel">
        <label for="question">Your question</label>
        <textarea
          id="question"
          rows={2}
          required
          maxLength={2000}
          value={question}
          onInput={(e) => setQuestion(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? "Asking…" : "Ask"}
        </button>
      </form>
      <ErrorNote error={error} />
      {answer && (
        <section aria-labelledby="answer-heading" class="answer">
          <h2 id="answer-heading">Answer</h2>
          {answer.low_confidence ? (
            <p class="warning" role="note">
              {answer.answer}
            </p>
          ) : (
            <p class="answer-text">{answer.answer}</p>
          )}
          <h3>{answer.low_confidence ? "Closest passages" : "Cited passages"}</h3>
          <ol class="passages">
            {answer.sources.map((s, i) => (
              <li key={i}>
                <blockquote>{s.text}</blockquote>
                <span class="muted">match {s.score.toFixed(2)}</span>
              </li>
            ))}
          </ol>
        </section>
      )}
    </>
  );
}
