/** A course: chapter navigation, the chapter's text with its citations, key concepts, its quiz. */
import { useEffect, useRef, useState } from "preact/hooks";
import { post } from "../api.ts";
import { Citation } from "../citation.tsx";
import { type Chapter, type Course, loadCourse } from "../course-data.ts";
import { CourseNav } from "../course-nav.tsx";
import { BuildProgress, type BuildState } from "../progress.tsx";
import { follow, resumeAndFollow } from "../resume.ts";
import { ErrorNote, Link, Loading, Markdown, PageTitle, useLoad } from "../ui.tsx";

export function CourseView({ id, chapter }: { id: string; chapter: number }) {
  const course = useLoad(() => loadCourse(id), [id]);
  const c = course.data;
  if (!c) return course.error ? <ErrorNote error={course.error} /> : <Loading what="the course" />;
  if (c.status !== "completed") return <Unfinished course={c} onDone={course.reload} />;
  const current = c.chapters.find((ch) => ch.order_index === chapter) ?? c.chapters[0];
  return (
    <>
      <PageTitle text={c.title} />
      <CourseNav id={id} current="" />
      <div class="course-layout">
        <nav aria-label="Chapters" class="chapter-list">
          <ol>
            {c.chapters.map((ch) => (
              <li key={ch.id}>
                <Link to={`/courses/${id}/chapters/${ch.order_index}`} current={ch === current}>
                  {ch.title}
                </Link>
              </li>
            ))}
          </ol>
        </nav>
        {current && (
          <ChapterView
            courseId={id}
            chapter={current}
            count={c.chapters.length}
            fellBack={current.generated_by === "extractive" && c.engine !== "extractive"}
          />
        )}
      </div>
    </>
  );
}

/**
 * Marks the chapter read (POST …/read) once its end has been on screen: reaching the end of a
 * chapter is what the learner's standing counts as reading it.
 */
function useReadWhenEndSeen(courseId: string, order: number) {
  const end = useRef<HTMLParagraphElement>(null);
  const [read, setRead] = useState(false);
  useEffect(() => {
    setRead(false);
    const target = end.current;
    if (!target) return;
    const seen = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      seen.disconnect();
      post(`/v2/courses/${courseId}/chapters/${order}/read`).then(
        () => setRead(true),
        () => {},
      );
    });
    seen.observe(target);
    return () => seen.disconnect();
  }, [courseId, order]);
  return { end, read };
}

function ChapterView({
  courseId,
  chapter,
  count,
  fellBack,
}: {
  courseId: string;
  chapter: Chapter;
  count: number;
  /** The model failed this chapter and the built-in engine wrote it instead (LLM_FALLBACK=extractive). */
  fellBack: boolean;
}) {
  const blocks = chapter.content.split(/\n\s*\n/);
  const { end, read } = useReadWhenEndSeen(courseId, chapter.order_index);
  return (
    <article class="chapter" aria-labelledby="chapter-title">
      <h2 id="chapter-title">
        Chapter {chapter.order_index + 1}: {chapter.title}
      </h2>
      {fellBack && (
        <p class="panel notice" role="note">
          The model failed this chapter, so it was built from the sources by the built-in extractive engine.
        </p>
      )}
      {chapter.key_concepts.length > 0 && (
        <section aria-labelledby="concepts" class="concepts">
          <h3 id="concepts">Key concepts</h3>
          <ul>
            {chapter.key_concepts.map((k) => (
              <li key={k}>{k}</li>
            ))}
          </ul>
        </section>
      )}
      {blocks.map((block, i) => {
        const cites = chapter.sources.map((s, n) => ({ s, n: n + 1 })).filter(({ s }) => s.paragraphs.includes(i));
        return (
          <div key={i} class="block">
            <Markdown text={block} />
            {cites.length > 0 && (
              <span class="cites">
                {" "}
                {cites.map(({ s, n }) => (
                  <Citation key={n} source={s} n={n} />
                ))}
              </span>
            )}
          </div>
        );
      })}
      {chapter.sources.length > 0 && (
        <section aria-labelledby="sources">
          <h3 id="sources">Sources</h3>
          <ol class="sources">
            {chapter.sources.map((s, n) => (
              <li key={n}>
                <Citation source={s} n={n + 1} /> {s.filename ?? s.title ?? s.url}
                {s.page != null && `, page ${s.page}`}
              </li>
            ))}
          </ol>
        </section>
      )}
      <p class="chapter-actions" ref={end}>
        {read && (
          <span class="read-mark" role="status">
            Chapter read
          </span>
        )}
        {chapter.quiz.questions.length > 0 && (
          <Link to={`/courses/${courseId}/quiz/${chapter.order_index}`} class="button">
            Take the chapter quiz
          </Link>
        )}
        {chapter.order_index > 0 && (
          <Link to={`/courses/${courseId}/chapters/${chapter.order_index - 1}`}>Previous chapter</Link>
        )}
        {chapter.order_index < count - 1 && (
          <Link to={`/courses/${courseId}/chapters/${chapter.order_index + 1}`}>Next chapter</Link>
        )}
      </p>
    </article>
  );
}

/** A course still generating (followed live) or failed (with its reason and a resume button). */
function Unfinished({ course, onDone }: { course: Course; onDone: () => void }) {
  const [state, setState] = useState<BuildState | null>(null);
  const [error, setError] = useState<unknown>(null);
  // Aborted when the page is left, so polling stops with it.
  const here = useRef(new AbortController());
  const ended = (s: BuildState) => s.status === "completed" && !here.current.signal.aborted && onDone();
  useEffect(() => {
    const controller = new AbortController();
    here.current = controller;
    follow(course.id, course.title, { onState: setState, signal: controller.signal }).then(ended, setError);
    return () => controller.abort();
  }, [course.id]);
  const resume = () =>
    resumeAndFollow(course.id, course.title, { onState: setState, signal: here.current.signal }).then(ended, setError);
  return (
    <>
      <PageTitle text={course.title} />
      {state && <BuildProgress state={state} />}
      <ErrorNote error={error} />
      {state?.status === "failed" && (
        <button type="button" onClick={resume}>
          Resume the course
        </button>
      )}
    </>
  );
}
