/**
 * The learner's standing in a course, from GET learner-progress: the completion figure, each
 * chapter read or not with its best and last quiz score, the exam attempts and the flashcards due.
 */
import { get } from "../api.ts";
import { CourseNav } from "../course-nav.tsx";
import { when } from "../time.ts";
import { ErrorNote, Link, Loading, PageTitle, TableHead, useLoad } from "../ui.tsx";

interface Attempt {
  score: number;
  total: number;
  percent: number;
}
interface BestAndLast {
  attempts: number;
  best: Attempt | null;
  last: Attempt | null;
}
interface Standing {
  completion: { percent: number; chapters: number; chapters_read: number; quizzes_passed: number };
  chapters: {
    order_index: number;
    title: string;
    read: boolean;
    quiz: BestAndLast & { questions: number; passed: boolean };
  }[];
  exams: BestAndLast;
  flashcards: { generated: boolean; total: number; reviewed: number; due: number; next_due: string | null };
}

const score = (a: Attempt | null) => (a ? `${a.score} / ${a.total} (${a.percent}%)` : "—");

export function StandingPage({ id }: { id: string }) {
  const standing = useLoad(() => get<Standing>(`/v2/courses/${id}/learner-progress`), [id]);
  const s = standing.data;
  return (
    <>
      <PageTitle text="Your progress" />
      <CourseNav id={id} current="/progress" />
      <ErrorNote error={standing.error} />
      {!s && !standing.error && <Loading what="your progress" />}
      {s && (
        <>
          <p class="completion">
            <label for="completion">Course completed: {s.completion.percent}%</label>{" "}
            <progress id="completion" max={100} value={s.completion.percent} />
          </p>
          <p class="muted">
            {s.completion.chapters_read} of {s.completion.chapters} chapters read, {s.completion.quizzes_passed} chapter{" "}
            {s.completion.quizzes_passed === 1 ? "quiz" : "quizzes"} passed (two thirds right or better). Each counts
            half of a chapter.
          </p>
          <table class="standing">
            <caption>Chapters</caption>
            <TableHead columns={["Chapter", "Read", "Best quiz score", "Last quiz score"]} />
            <tbody>
              {s.chapters.map((c) => (
                <tr key={c.order_index}>
                  <th scope="row">
                    <Link to={`/courses/${id}/chapters/${c.order_index}`}>{c.title}</Link>
                  </th>
                  <td>{c.read ? "Read" : "Not yet"}</td>
                  <td>
                    {c.quiz.attempts > 0 ? (
                      `${score(c.quiz.best)}${c.quiz.passed ? ", passed" : ""}`
                    ) : (
                      <Link to={`/courses/${id}/quiz/${c.order_index}`}>Take the quiz</Link>
                    )}
                  </td>
                  <td>{score(c.quiz.last)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>Exam</h2>
          <p>
            {s.exams.attempts > 0
              ? `${s.exams.attempts} attempt${s.exams.attempts === 1 ? "" : "s"}; best ${score(s.exams.best)}, last ${score(s.exams.last)}.`
              : "No exam taken yet."}
          </p>
          <h2>Flashcards</h2>
          <p class="flashcard-standing">
            {s.flashcards.generated
              ? `${s.flashcards.due} of ${s.flashcards.total} cards due now; ${s.flashcards.reviewed} reviewed.${s.flashcards.next_due ? ` Next card due ${when(s.flashcards.next_due)}.` : ""}`
              : "No flashcards yet."}{" "}
            <Link to={`/courses/${id}/flashcards`}>Review flashcards</Link>
          </p>
        </>
      )}
    </>
  );
}
