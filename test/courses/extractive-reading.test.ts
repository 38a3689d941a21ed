/**
 * Courses built without a model from real documents read as a learner would: no chart labels as
 * subheadings, no footnote marks glued to words, key concepts that are the domain's terms,
 * fill-in-the-blank questions that blank a whole noun phrase among noun-phrase choices, a sentence
 * that leans on the one before it ("These instructions…", "As a result, …") kept with that one, no
 * walk through a figure the learner cannot see, chapters that follow the paper's own sections, and
 * a manual's code examples kept whole after the sentences that introduce them.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { extractedMarkdown } from "../../src/documents/extract.ts";
import { call, ROOT } from "../helpers/server.ts";
import { type CourseEnv, corpusForm, courseEnv, syncCourse } from "./helpers.ts";

// Each document is a whole course built from a real document through the server in this process.
setDefaultTimeout(300_000);

const CORPUS = join(ROOT, "../shared/corpus");

interface Mcq {
  prompt: string;
  choices: string[];
  answer: number;
}
interface Chapter {
  title: string;
  content: string;
  key_concepts: string[];
  quiz: { questions: Mcq[] };
  sources: { page: number; paragraphs: number[] }[];
}
interface Course {
  title: string;
  chapters: Chapter[];
  exam: Mcq[];
}

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(() => env.stop());

/**
 * A paper's course is built once for every test that reads it (a build is most of a test's CPU);
 * the first test to ask for its exam asks for it, the rest read the same one. Only the tests that
 * read an exam's questions ask for one.
 */
const built = new Map<
  string,
  Promise<{ id: string; title: string; chapters: Chapter[]; outline: { sources: { document_id: string }[] } }>
>();
const exams = new Map<string, Promise<Mcq[]>>();

const courseOf = (path: string) => {
  if (!built.has(path))
    built.set(
      path,
      corpusForm(join(CORPUS, path)).then((form) => syncCourse(env, form)),
    );
  return built.get(path)!;
};

async function examOf(courseId: string): Promise<Mcq[]> {
  const ask = (size: number) =>
    call(env.srv, `/v2/courses/${courseId}/generate-exam`, { key: env.key, user: "reader", json: { exam_size: size } });
  let exam = await ask(20);
  // A short source may support fewer whole exam items: the 422 says how many, as a user would read it.
  if (exam.status === 422) exam = await ask(exam.body.error.details.available);
  expect(exam.status).toBe(200);
  return exam.body.exam.questions.filter((q: { type: string }) => q.type === "mcq");
}

async function build(path: string, withExam = true): Promise<Course> {
  const course = await courseOf(path);
  if (!withExam) return { title: course.title, chapters: course.chapters, exam: [] };
  if (!exams.has(path)) exams.set(path, examOf(course.id));
  return { title: course.title, chapters: course.chapters, exam: await exams.get(path)! };
}

/** The course's chapters' markdown, joined. */
const courseText = (c: Course) => c.chapters.map((ch) => ch.content).join("\n\n");

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
  const course = await build("pdf/tracemonkey.pdf", false);
  const all = concepts(course);
  for (const bad of ["executes", "FORCESSTACK", "REQUIRESSTACK", "compiler", "iteration", "integers"])
    expect(all).not.toContain(bad);
  expect(all).toContain("trace trees");
  const text = course.chapters.map((ch) => ch.content).join("\n");
  // "…convert any integer result back to a double.1 Clearly, …" (footnote 1).
  expect(text).not.toContain("double.1");
});

/** The R manual (113 pages) is the longest build here: beside other work it took over 5 minutes. */
const R_MANUAL_MS = 600_000;

test(
  "R manual: code names are not key concepts and footnote marks are gone",
  async () => {
    const course = await build("pdf/R-intro.pdf", false);
    const all = concepts(course);
    // "Lst[[1]]", "Lst$name" and "expr_1" are code in the manual; "Users can …" only opens sentences.
    for (const bad of ["Lst", "expr", "Users", "CMD"]) expect(all).not.toContain(bad);
    expect(all).toContain("data frame");
    expect(all).toContain("R CMD");
    const text = course.chapters.map((ch) => ch.content).join("\n");
    expect(text).not.toMatch(/\b(limited3|allowed1|almost2|statef2)\b/);
  },
  R_MANUAL_MS,
);

/** Every fenced code block of a markdown text, with the paragraph just before it. */
function fencedBlocks(markdown: string): { code: string; before: string }[] {
  const out: { code: string; before: string }[] = [];
  const re = /(?:^|\n\n)((?:(?!\n\n)[\s\S])*)\n\n(`{3,})\n([\s\S]*?)\n\2(?=\n|$)/g;
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) {
    out.push({ before: m[1]!, code: m[3]! });
    re.lastIndex = m.index + m[0].length;
  }
  return out;
}

/** A paragraph that introduces what follows it: it ends with a colon or no stop, or announces an example. */
const INTRODUCES =
  /([^.!?]["'”’)\]]?$)|\b(for example|for instance|as follows|the following|as an? (\w+ )?example|consider)\b/i;

test(
  "R manual: chapters carry its code examples whole, each after the sentence that introduces it",
  async () => {
    const course = await build("pdf/R-intro.pdf", false);
    // The manual as the server extracted it for this course: no second extraction of its 113 pages.
    const [read] = (await courseOf("pdf/R-intro.pdf")).outline.sources;
    const source = await extractedMarkdown(env.srv.svc.sql, read!.document_id);

    const listings = [...source.matchAll(/(?<=^|\n)(`{3,})\n([\s\S]*?)\n\1(?=\n|$)/g)].map((m) => m[2]!);
    /** Whether a code block is whole: one of the manual's listings, or consecutive ones (a listing broken by a page). */
    const whole = (code: string) =>
      listings.some((_, i) => {
        let joined = listings[i]!;
        for (let j = i + 1; joined.length < code.length && j < listings.length; j++) joined += `\n${listings[j]}`;
        return joined === code;
      });
    const blocks = course.chapters.flatMap((c) => fencedBlocks(c.content));
    expect(blocks.length).toBeGreaterThanOrEqual(12);
    for (const b of blocks) {
      // Never split: each is a whole listing of the manual, and kept with the sentence that introduces it.
      expect({ code: b.code, whole: whole(b.code) }).toEqual({ code: b.code, whole: true });
      expect(b.before).toMatch(INTRODUCES);
    }
    // A description in the manual's table of terms keeps the formula it describes.
    expect(courseText(course)).not.toMatch(/(^|\n\n)Multiple regression of the transformed variable/);
  },
  R_MANUAL_MS,
);

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

/**
 * Each kept sentence of `pairs` (a sentence that leans back, and the end of the source sentence
 * before it) comes right after that sentence; at least one is kept, so the check is not empty.
 */
function keptWithAntecedents(text: string, pairs: [antecedentEnd: string, leaning: string][]) {
  const kept = pairs.filter(([, leaning]) => text.includes(leaning));
  expect(kept.length).toBeGreaterThan(0);
  for (const [antecedentEnd, leaning] of kept) expect(text).toContain(`${antecedentEnd} ${leaning}`);
}

test("TraceMonkey paper: back-references come with their antecedents, the example run's figure is not walked through", async () => {
  const text = courseText(await build("pdf/tracemonkey.pdf", false));
  // Before, both were kept alone: "These instructions exit from the trace…" and "This represents a mis-speculation…".
  keptWithAntecedents(text, [
    ["generates conditional exit LIR instructions.", "These instructions exit from the trace"],
    ["ends with a double value.", "This represents a mis-speculation"],
    ["the VM must record traces starting at all side exits.", "These traces are recorded much like root traces"],
  ]);
  // Section 2 narrates Figure 2 and the listing of Figure 1: trace labels, line numbers, the figure itself.
  expect(text).not.toMatch(/\bT16\b|\bT45\b|T23,1|\bline \d|Figure 2/);
  // A citation split onto the next sentence ("invariant. (12) For example, …") goes back to its own sentence.
  expect(text).not.toMatch(/(^|[.!?] )\(\d+\) \p{Lu}/mu);
  // A subsection whose best sentences lean back ("As a result, …", "In this case, …") is still taught.
  expect(text).toContain("### 3.3 Blacklisting");
});

test("DPR paper: no sentence reads a table's blocks or examples the learner does not see", async () => {
  const text = courseText(await build("pdf/dpr-paper-multi-column.pdf", false));
  // Before: "…hard negative passages … (the bottom block)." and "In the first example, the top scoring passage…".
  expect(text).not.toMatch(/the (top|bottom) block|In the first example/);
  keptWithAntecedents(text, [
    ["wrote questions after seeing the passage.", "As a result, there is a high lexical overlap"],
    ["already outperforms BM25.", "This suggests that with a general pretrained language model"],
    ["is exceptionally strong.", "It not only outperforms BM25 by a large margin"],
  ]);
  // A sentence's tail cut at a column break ("mul- | tiple datasets, …") is no entry's description.
  expect(text).not.toContain("— tiple datasets");
});

// The TraceMonkey paper's numbered sections and the pages they start on (checked against the PDF).
const SECTION_START: Record<string, number> = {
  Introduction: 1,
  "Overview: Example Tracing Run": 2,
  "Trace Trees": 4,
  "Nested Trace Tree Formation": 6,
  "Trace Tree Optimization": 7,
  Implementation: 8,
  Evaluation: 10,
  "Related Work": 12,
  Conclusions: 13,
  "Future Work": 13,
};

test("TraceMonkey paper: titles come from the paper's headings and chapters are grounded in their own sections", async () => {
  const course = await build("pdf/tracemonkey.pdf", false);

  expect(course.title).toBe("Trace-based Just-in-Time Type Specialization for Dynamic Languages");
  const titles = course.chapters.map((c) => c.title);
  expect(titles).toHaveLength(4);
  // A chapter is a run of the paper's own sections, titled by their headings ("A, B and C").
  const sectionsOf = (t: string) => t.split(/, | and /);
  for (const t of titles) for (const s of sectionsOf(t)) expect(Object.keys(SECTION_START)).toContain(s);
  // Together the chapters cover every section, once each, in the paper's order.
  expect(titles.flatMap(sectionsOf)).toEqual(Object.keys(SECTION_START));
  // Back matter is not taught.
  expect(titles.join(" ")).not.toMatch(/References|Acknowledg/);
  expect(courseText(course)).not.toMatch(/\[\d+\] [A-Z]\. [A-Z][a-z]+/);

  for (const ch of course.chapters) {
    const pages = ch.sources.map((s) => s.page);
    const [first] = sectionsOf(ch.title);
    const last = sectionsOf(ch.title).at(-1)!;
    const next = Object.values(SECTION_START).find((p) => p > SECTION_START[last]!) ?? 14;
    // A chapter reads its own pages only: from its first section's page to where the next chapter's begins.
    expect(Math.min(...pages)).toBeGreaterThanOrEqual(SECTION_START[first!]!);
    expect(Math.max(...pages)).toBeLessThanOrEqual(next);
    expect(ch.content).not.toMatch(/\/\/ (load|store)/);
    // Every source says which paragraphs it grounds, and every paragraph of prose is grounded.
    const grounded = new Set(ch.sources.flatMap((s) => s.paragraphs));
    ch.content.split(/\n\s*\n/).forEach((para, i) => {
      if (!para.startsWith("#")) expect(grounded.has(i)).toBe(true);
    });
  }
});
