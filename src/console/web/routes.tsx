/** Which page each console path shows. */

import { Ask } from "./pages/ask.tsx";
import { CourseView } from "./pages/course.tsx";
import { Courses } from "./pages/courses.tsx";
import { Flashcards } from "./pages/flashcards.tsx";
import { Library } from "./pages/library.tsx";
import { NewCourse } from "./pages/new-course.tsx";
import { Podcasts } from "./pages/podcasts.tsx";
import { QuizPage } from "./pages/quiz.tsx";
import { StandingPage } from "./pages/standing.tsx";
import { Study } from "./pages/study.tsx";
import { Usage } from "./pages/usage.tsx";
import { Webhooks } from "./pages/webhooks.tsx";
import { match } from "./router.ts";
import { Link, PageTitle } from "./ui.tsx";

type Params = Record<string, string>;

/** Patterns with parameters, tried in order; the fixed paths are looked up first. */
const PAGES: [string, (p: Params) => preact.JSX.Element][] = [
  ["/courses/:id", (p) => <CourseView id={p.id!} chapter={0} />],
  ["/courses/:id/chapters/:n", (p) => <CourseView id={p.id!} chapter={Number(p.n)} />],
  ["/courses/:id/quiz/:n", (p) => <QuizPage id={p.id!} chapter={Number(p.n)} />],
  ["/courses/:id/exam", (p) => <QuizPage id={p.id!} chapter={null} />],
  ["/courses/:id/flashcards", (p) => <Flashcards id={p.id!} />],
  ["/courses/:id/ask", (p) => <Ask id={p.id!} />],
  ["/courses/:id/podcasts", (p) => <Podcasts id={p.id!} />],
  ["/courses/:id/study", (p) => <Study id={p.id!} />],
  ["/courses/:id/progress", (p) => <StandingPage id={p.id!} />],
];

export function Routes({ path }: { path: string }) {
  if (path === "/" || path === "/courses") return <Courses />;
  if (path === "/library") return <Library />;
  if (path === "/new") return <NewCourse />;
  if (path === "/webhooks") return <Webhooks />;
  if (path === "/usage") return <Usage />;
  for (const [pattern, page] of PAGES) {
    const params = match(pattern, path);
    if (params) return page(params);
  }
  return (
    <>
      <PageTitle text="Page not found" />
      <p>
        Nothing here. <Link to="/">Back to your courses</Link>.
      </p>
    </>
  );
}
