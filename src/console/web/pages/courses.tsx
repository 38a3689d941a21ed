/** Home: the learner's courses, newest first. */
import { get } from "../api.ts";
import { ErrorNote, Link, Loading, PageTitle, useLoad } from "../ui.tsx";

interface CourseSummary {
  id: string;
  title: string;
  status: string;
  created_at: string;
  chapters: { order_index: number; title: string }[];
}

export function Courses() {
  const list = useLoad(() => get<{ data: CourseSummary[] }>("/v2/courses?limit=100"), []);
  return (
    <>
      <PageTitle text="Your courses" />
      <p>
        <Link to="/new" class="button">
          New course
        </Link>
      </p>
      <ErrorNote error={list.error} />
      {list.loading && !list.data && <Loading what="courses" />}
      {list.data && list.data.data.length === 0 && (
        <p>
          No courses yet. Add documents to your <Link to="/library">library</Link>, then build a course from them.
        </p>
      )}
      <ul class="cards">
        {list.data?.data.map((c) => (
          <li key={c.id} class="card">
            <h2>
              <Link to={`/courses/${c.id}`}>{c.title}</Link>
            </h2>
            <p class="muted">
              <span class={`status status-${c.status}`}>{c.status}</span> · {c.chapters.length} chapters ·{" "}
              {new Date(c.created_at).toLocaleString()}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
