/** A chapter's quiz (from the course) or the course exam (generated on request): answer, submit, score, explanations. */
import { useState } from "preact/hooks";
import { post } from "../api.ts";
import { loadCourse } from "../course-data.ts";
import { CourseNav } from "../course-nav.tsx";
import { type GradedAnswer, gradeAnswer, type Question, score } from "../grading.ts";
import { ErrorNote, Link, Loading, PageTitle, useLoad } from "../ui.tsx";

interface Quiz {
  title: string;
  questions: Question[];
}

async function loadQuiz(id: string, chapter: number | null): Promise<Quiz> {
  if (chapter === null) {
    const res = await post<{ exam: Quiz }>(`/v2/courses/${id}/generate-exam`, { exam_size: 10 });
    return res.exam;
  }
  const course = await loadCourse(id);
  const ch = course.chapters.find((c) => c.order_index === chapter);
  return { title: ch ? `Quiz: ${ch.title}` : "Quiz", questions: ch?.quiz.questions ?? [] };
}

export function QuizPage({ id, chapter }: { id: string; chapter: number | null }) {
  const quiz = useLoad(() => loadQuiz(id, chapter), [id, chapter]);
  return (
    <>
      <PageTitle text={quiz.data?.title ?? (chapter === null ? "Exam" : "Chapter quiz")} />
      <CourseNav id={id} current={chapter === null ? "/exam" : ""} />
      <ErrorNote error={quiz.error} />
      {quiz.loading && !quiz.data && <Loading what={chapter === null ? "the exam (it is written now, this can take a while)" : "the quiz"} />}
      {quiz.data && <QuizForm key={`${id}-${chapter}`} quiz={quiz.data} />}
      {chapter !== null && (
        <p>
          <Link to={`/courses/${id}/chapters/${chapter}`}>Back to the chapter</Link>
        </p>
      )}
    </>
  );
}

function QuizForm({ quiz }: { quiz: Quiz }) {
  const [answers, setAnswers] = useState<(string | number | null)[]>(() => quiz.questions.map(() => null));
  const [results, setResults] = useState<GradedAnswer[] | null>(null);
  const set = (i: number, v: string | number) => setAnswers((a) => a.map((x, j) => (j === i ? v : x)));
  const submit = (e: Event) => {
    e.preventDefault();
    setResults(quiz.questions.map((q, i) => gradeAnswer(q, answers[i] ?? null)));
  };
  const total = results && score(results);
  return (
    <form onSubmit={submit} class="quiz">
      {quiz.questions.length === 0 && <p>This quiz has no questions.</p>}
      {quiz.questions.map((q, i) => {
        const r = results?.[i];
        return (
          <fieldset key={i} class={r ? (r.correct ? "right" : "wrong") : ""}>
            <legend>
              {i + 1}. {q.prompt}
            </legend>
            {q.type === "mcq" && q.choices ? (
              q.choices.map((choice, k) => (
                <label key={k} class="choice">
                  <input type="radio" name={`q${i}`} value={k} checked={answers[i] === k} onChange={() => set(i, k)} disabled={!!results} /> {choice}
                </label>
              ))
            ) : (
              <>
                <label for={`q${i}-text`}>Your answer</label>
                <textarea id={`q${i}-text`} rows={3} value={String(answers[i] ?? "")} onInput={(e) => set(i, e.currentTarget.value)} disabled={!!results} />
              </>
            )}
            {r && (
              <div class="feedback" role="status">
                <strong>{r.correct ? "Correct." : "Not quite."}</strong> {!r.correct && <>Answer: {r.expected}. </>}
                {r.explanation && <p class="explanation">{r.explanation}</p>}
              </div>
            )}
          </fieldset>
        );
      })}
      {!results && quiz.questions.length > 0 && <button type="submit">Submit answers</button>}
      {total && (
        <p class="score" role="status" aria-live="polite">
          Score: {total.right} / {total.total} ({total.percent}%)
        </p>
      )}
      {results && (
        <button type="button" onClick={() => (setResults(null), setAnswers(quiz.questions.map(() => null)))}>
          Try again
        </button>
      )}
    </form>
  );
}
