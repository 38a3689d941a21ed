/** A chapter's quiz (from the course) or the course exam (generated on request): answer, submit, score, explanations. */
import { useState } from "preact/hooks";
import { post } from "../api.ts";
import { loadCourse } from "../course-data.ts";
import { CourseNav } from "../course-nav.tsx";
import { type Answer, type Attempt, type Question, type QuizSource, scoreText, submitAttempt } from "../grading.ts";
import { ErrorNote, Link, Loading, PageTitle, useAction, useLoad } from "../ui.tsx";

const EXAM_SIZE = 10;

interface Quiz {
  title: string;
  questions: Question[];
}

async function loadQuiz(id: string, chapter: number | null): Promise<Quiz> {
  if (chapter === null) {
    const res = await post<{ exam: Quiz }>(`/v2/courses/${id}/generate-exam`, { exam_size: EXAM_SIZE });
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
      {quiz.loading && !quiz.data && (
        <Loading what={chapter === null ? "the exam (it is written now, this can take a while)" : "the quiz"} />
      )}
      {quiz.data && (
        <QuizForm
          key={`${id}-${chapter}`}
          courseId={id}
          source={chapter === null ? { examSize: EXAM_SIZE } : { chapter }}
          quiz={quiz.data}
        />
      )}
      {chapter !== null && (
        <p>
          <Link to={`/courses/${id}/chapters/${chapter}`}>Back to the chapter</Link>
        </p>
      )}
    </>
  );
}

function QuizForm({ courseId, source, quiz }: { courseId: string; source: QuizSource; quiz: Quiz }) {
  const [answers, setAnswers] = useState<Answer[]>(() => quiz.questions.map(() => null));
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const { busy, error, run } = useAction();
  const set = (i: number, v: string | number) => setAnswers((a) => a.map((x, j) => (j === i ? v : x)));
  const submit = (e: Event) => {
    e.preventDefault();
    return run(async () => setAttempt(await submitAttempt(courseId, source, answers)));
  };
  const results = attempt?.results;
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
                  <input
                    type="radio"
                    name={`q${i}`}
                    value={k}
                    checked={answers[i] === k}
                    onChange={() => set(i, k)}
                    disabled={!!attempt}
                  />{" "}
                  {choice}
                </label>
              ))
            ) : (
              <>
                <label for={`q${i}-text`}>Your answer</label>
                <textarea
                  id={`q${i}-text`}
                  rows={3}
                  value={String(answers[i] ?? "")}
                  onInput={(e) => set(i, e.currentTarget.value)}
                  disabled={!!attempt}
                />
              </>
            )}
            {r && (
              <div class="feedback" role="status">
                <strong>{r.correct ? "Correct." : "Not quite."}</strong>{" "}
                {!r.correct && <>Answer: {r.expected_text}. </>}
                {r.explanation && <p class="explanation">{r.explanation}</p>}
                {r.rubric && (
                  <ul class="rubric">
                    {r.rubric.map((p, k) => (
                      <li key={k}>
                        {p.met === "yes" ? "Met" : p.met === "partly" ? "Partly met" : "Not met"}: {p.point}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </fieldset>
        );
      })}
      <ErrorNote error={error} />
      {!attempt && quiz.questions.length > 0 && (
        <button type="submit" disabled={busy}>
          {busy ? "Grading…" : "Submit answers"}
        </button>
      )}
      {attempt && (
        <p class="score" role="status" aria-live="polite">
          {scoreText(attempt)}
        </p>
      )}
      {attempt && (
        <button
          type="button"
          onClick={() => {
            setAttempt(null);
            setAnswers(quiz.questions.map(() => null));
          }}
        >
          Try again
        </button>
      )}
    </form>
  );
}
