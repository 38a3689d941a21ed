/**
 * Courses built without a model from real documents read as a learner would: no chart labels as
 * subheadings, no footnote marks glued to words, key concepts that are the domain's terms, and
 * fill-in-the-blank questions that blank a whole noun phrase among noun-phrase choices.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { call, ROOT } from "../helpers/server.ts";
import { type CourseEnv, corpusForm, courseEnv, syncCourse } from "./helpers.ts";

// Each test builds a whole course from a real document through a real server.
setDefaultTimeout(300_000);

const CORPUS = join(ROOT, "../shared/corpus");

interface Mcq {
  prompt: string;
  choices: string[];
  answer: number;
}
interface Course {
  chapters: { title: string; content: string; key_concepts: string[]; quiz: { questions: Mcq[] } }[];
  exam: Mcq[];
}

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(() => env.stop());

async function build(path: string, withExam = true): Promise<Course> {
  const course = await syncCourse(env, await corpusForm(join(CORPUS, path)));
  if (!withExam) return { chapters: course.chapters, exam: [] };
  const examOf = (size: number) =>
    call(env.srv, `/v2/courses/${course.id}/generate-exam`, {
      key: env.key,
      user: "reader",
      json: { exam_size: size },
    });
  let exam = await examOf(20);
  // A short source may support fewer whole exam items: the 422 says how many, as a user would read it.
  if (exam.status === 422) exam = await examOf(exam.body.error.details.available);
  expect(exam.status).toBe(200);
  return {
    chapters: course.chapters,
    exam: exam.body.exam.questions.filter((q: { type: string }) => q.type === "mcq"),
  };
}

const subheadings = (c: Course) => c.chapters.flatMap((ch) => ch.content.match(/^#{2,} .+$/gm) ?? []);
const concepts = (c: Course) => c.chapters.flatMap((ch) => ch.key_concepts);
const clozes = (c: Course) =>
  [...c.chapters.flatMap((ch) => ch.quiz.questions), ...c.exam].filter((q) => q.prompt.includes("_____"));

test("DPR paper: no chart label as a subheading, no footnote mark on a word, key concepts are its terms", async () => {
  const course = await build("pdf/dpr-paper-multi-column.pdf");
  // Figure 1's x-axis title ("k: # of retrieved passages") was a subheading of chapter 2.
  for (const h of subheadings(course)) expect(h).not.toMatch(/^#+ (\p{L}{1,2}\s*:|.*\s#\s)/u);
  const text = course.chapters.map((ch) => ch.content).join("\n");
  // Footnotes 5 and 6 were glued on: "in the end.5 Each passage", "TREC, WebQuestions and TriviaQA6,".
  expect(text).not.toMatch(/\bTriviaQA6\b|\bend\.5\b/);
  expect(text).toContain("TREC, WebQuestions and TriviaQA, we use");
  const all = concepts(course);
  // The paper's subject, with its abbreviation; no lone everyday nouns ("passages", "retrieval", "batch").
  expect(all).toContain("Dense Passage Retriever (DPR)");
  // A phrase and its abbreviation are one concept: no chapter lists "dense passage retriever" and "DPR" apart.
  for (const ch of course.chapters)
    expect(ch.key_concepts.some((k) => /^dense passage retriever$/i.test(k)) && ch.key_concepts.includes("DPR")).toBe(
      false,
    );
  for (const c of all) expect(c).not.toMatch(/^\p{Ll}+$/u);
  // No blank cuts a hyphenated word ("in-_____ negative training").
  for (const q of clozes(course)) expect(q.prompt).not.toMatch(/[\p{L}\p{N}]-_____|_____-[\p{L}\p{N}]/u);
});

test("Wikipedia page: a cloze blanks a noun phrase, never a subject with its verb, among noun-phrase choices", async () => {
  const course = await build("html/readability-wikipedia/source.html");
  const all = concepts(course);
  // "The Mozilla Foundation pledges to support…" gave the concept (and answer) "Mozilla Foundation pledges";
  // "and Promote the Mozilla Manifesto principles…" gave the concept (and distractor) "Promote".
  expect(all).toContain("Mozilla Foundation");
  expect(all).not.toContain("Mozilla Foundation pledges");
  expect(all).not.toContain("Promote");
  const choices = [...course.chapters.flatMap((ch) => ch.quiz.questions), ...course.exam].flatMap((q) => q.choices);
  expect(choices).not.toContain("Promote");
  expect(choices).not.toContain("Mozilla Foundation pledges");
  for (const q of clozes(course)) expect(q.prompt).not.toMatch(/_____ (the|a|an|its|their) /);
});

test("TraceMonkey paper: key concepts are neither verbs nor program constants, footnote marks are gone", async () => {
  const course = await build("pdf/tracemonkey.pdf");
  const all = concepts(course);
  for (const bad of ["executes", "FORCESSTACK", "REQUIRESSTACK", "compiler", "iteration", "integers"])
    expect(all).not.toContain(bad);
  expect(all).toContain("trace trees");
  const text = course.chapters.map((ch) => ch.content).join("\n");
  // "…convert any integer result back to a double.1 Clearly, …" (footnote 1).
  expect(text).not.toContain("double.1");
});

test("R manual: code names are not key concepts and footnote marks are gone", async () => {
  const course = await build("pdf/R-intro.pdf");
  const all = concepts(course);
  // "Lst[[1]]", "Lst$name" and "expr_1" are code in the manual; "Users can …" only opens sentences.
  for (const bad of ["Lst", "expr", "Users", "CMD"]) expect(all).not.toContain(bad);
  expect(all).toContain("data frame");
  expect(all).toContain("R CMD");
  const text = course.chapters.map((ch) => ch.content).join("\n");
  expect(text).not.toMatch(/\b(limited3|allowed1|almost2|statef2)\b/);
});

test.each(["docx/markitdown-autogen-paper.docx", "pptx/markitdown-autogen-slides.pptx"])(
  "AutoGen %s: its authors are neither taught nor key concepts",
  async (path) => {
    const course = await build(path, false);
    const authors = ["Qingyun", "Gagan", "Bansal", "Jieyu", "Jiang", "Ryen", "Awadallah", "Burger"];
    // Chapter 1 listed "Gagan Bansal" (the paper) and "Gagan Bansal; Jiang; Ryen" (the slides) as key concepts.
    for (const c of concepts(course)) for (const name of authors) expect(c).not.toContain(name);
    for (const ch of course.chapters) for (const name of authors) expect(ch.content).not.toContain(name);
    expect(concepts(course)).toContain("AutoGen");
  },
);
