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

export function Routes({ path }: { path: string }) {
  let m: Record<string, string> | null;
  if (path === "/" || path === "/courses") return <Courses />;
  if (path === "/library") return <Library />;
  if (path === "/new") return <NewCourse />;
  if (path === "/webhooks") return <Webhooks />;
  if (path === "/usage") return <Usage />;
  if ((m = match("/courses/:id", path))) return <CourseView id={m.id!} chapter={0} />;
  if ((m = match("/courses/:id/chapters/:n", path))) return <CourseView id={m.id!} chapter={Number(m.n)} />;
  if ((m = match("/courses/:id/quiz/:n", path))) return <QuizPage id={m.id!} chapter={Number(m.n)} />;
  if ((m = match("/courses/:id/exam", path))) return <QuizPage id={m.id!} chapter={null} />;
  if ((m = match("/courses/:id/flashcards", path))) return <Flashcards id={m.id!} />;
  if ((m = match("/courses/:id/ask", path))) return <Ask id={m.id!} />;
  if ((m = match("/courses/:id/podcasts", path))) return <Podcasts id={m.id!} />;
  if ((m = match("/courses/:id/study", path))) return <Study id={m.id!} />;
  if ((m = match("/courses/:id/progress", path))) return <StandingPage id={m.id!} />;
  return (
    <>
      <PageTitle text="Page not found" />
      <p>
        Nothing here. <Link to="/">Back to your courses</Link>.
      </p>
    </>
  );
}
