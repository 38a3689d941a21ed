/**
 * A course built through the API from one markdown text with the built-in engine, and what the item
 * tests read of it: each chapter's quiz, the flashcards and the study guide's sections; `exam(size)`
 * asks for an exam, and for as many items as the text supplies when it supplies fewer.
 */
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";

export interface GuideSection {
  heading: string;
  body?: string;
  bullets?: string[];
  items?: { term: string; definition: string }[];
}

export interface CourseMaterials<Q> {
  srv: TestApp;
  quizzes: Q[][];
  cards: { front: string; back: string }[];
  sections: GuideSection[];
  /** A call on the course's own path ("generate-exam", …) as its learner. */
  ask: (path: string, json?: unknown) => ReturnType<typeof call<any>>;
  exam: (size: number) => Promise<Q[]>;
}

export async function courseMaterials<Q>(
  text: string,
  filename: string,
  chapters: number,
): Promise<CourseMaterials<Q>> {
  const srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  const key = await srv.createKey("acme", "production");
  const form = new FormData();
  form.append("files", new File([text], filename, { type: "text/markdown" }));
  form.append("num_chapters", String(chapters));
  const made = await call(srv, "/v2/courses/generate-from-files?mode=sync", { key, user: "learner", body: form });
  if (made.status !== 200) throw new Error(`course generation failed: ${made.status} ${made.text}`);
  const id = made.body.course.id;
  const ask = (path: string, json?: unknown) => call(srv, `/v2/courses/${id}/${path}`, { key, user: "learner", json });
  const course = await call(srv, `/v2/courses/${id}`, { key, user: "learner" });
  const quizzes = (course.body.chapters as { quiz: { questions: Q[] } }[]).map((c) => c.quiz.questions);
  const cards = (await ask("generate-flashcards", {})).body.flashcards.cards;
  const sections = (await ask("study-guide")).body.study_guide.sections as GuideSection[];
  const exam = async (size: number): Promise<Q[]> => {
    let r = await ask("generate-exam", { exam_size: size });
    // A short text supplies fewer items than asked: take as many as it has.
    const available = r.body.error?.details?.available;
    if (r.status === 422 && available >= 1) r = await ask("generate-exam", { exam_size: available });
    return (r.body.exam?.questions ?? []) as Q[];
  };
  return { srv, quizzes, cards, sections, ask, exam };
}
