/** The course's own pages, under its title. */
import { Link } from "./ui.tsx";

const PAGES = [
  ["", "Chapters"],
  ["/study", "Study guide & notes"],
  ["/exam", "Exam"],
  ["/flashcards", "Flashcards"],
  ["/ask", "Ask"],
  ["/podcasts", "Podcasts"],
  ["/progress", "Your progress"],
] as const;

export function CourseNav({ id, current }: { id: string; current: string }) {
  return (
    <nav aria-label="Course" class="course-nav">
      <ul>
        {PAGES.map(([to, label]) => (
          <li key={to}>
            <Link to={`/courses/${id}${to}`} current={current === to}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
