/**
 * Courses from a book follow the book: chapters are its parts and chapters in order, grouped or
 * split at its own boundaries, balanced; and a document holding its text several times is taught
 * once, the repeats named in the document's details and the course's outline.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { call } from "../helpers/server.ts";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "./helpers.ts";

// Each chapter of the built book is about one thing, named in every sentence, so a course
// chapter's text tells which of the book's chapters it reads.
const SUBJECTS = ["Basalt", "Granite", "Marble", "Obsidian", "Pumice", "Quartzite", "Sandstone", "Limestone", "Slate"];
const PARTS = ["Volcanic Rocks", "Metamorphic Rocks", "Sedimentary Rocks"];

// Varied sentences (a seeded generator), so the book never repeats eight words in a row by accident.
function sentences(subject: string, seed: number, n: number): string[] {
  let x = seed;
  const pick = <T>(xs: T[]) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return xs[x % xs.length]!;
  };
  const verbs = [
    "forms",
    "weathers",
    "fractures",
    "erodes",
    "hardens",
    "cools",
    "shifts",
    "settles",
    "glints",
    "crumbles",
  ];
  const things = [
    "crystals",
    "grains",
    "layers",
    "veins",
    "pores",
    "minerals",
    "cliffs",
    "boulders",
    "pebbles",
    "ridges",
  ];
  const places = ["river valleys", "mountain passes", "coastal cliffs", "quarries", "desert plateaus", "glacial lakes"];
  const times = [
    "each winter",
    "over centuries",
    "after heavy rain",
    "during droughts",
    "within decades",
    "every spring",
  ];
  return Array.from(
    { length: n },
    (_, i) =>
      `${subject} ${pick(verbs)} into ${pick(["coarse", "fine", "dark", "pale", "banded", "glassy"])} ${pick(things)} near ${pick(places)} ${pick(times)}, and geologists measured ${17 + ((seed * 31 + i * 7) % 900)} ${pick(things)} of it at site ${seed}-${i}.`,
  );
}

/** A markdown book: three parts of three chapters, each chapter three numbered sections of a paragraph each. */
function book(title = "A Field Guide to Rocks"): string {
  const lines = [`# ${title}`, ""];
  SUBJECTS.forEach((subject, c) => {
    if (c % 3 === 0) lines.push(`## Part ${c / 3 + 1}: ${PARTS[c / 3]}`, "");
    lines.push(`### Chapter ${c + 1}: ${subject}`, "");
    for (let s = 1; s <= 3; s++) {
      lines.push(`#### ${c + 1}.${s} ${subject} ${["Origins", "Structure", "Uses"][s - 1]}`, "");
      lines.push(sentences(subject, c * 100 + s * 10, 5).join(" "), "");
    }
  });
  return lines.join("\n");
}

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(() => env.stop());

const courseOf = (chapters: number, content: string, name = "rocks.md") =>
  syncCourse(env, filesForm({ num_chapters: String(chapters) }, [{ name, content }]));

/** For each course chapter, the book chapters (indexes into SUBJECTS) its text reads. */
const subjectsIn = (course: any): number[][] =>
  course.chapters.map((ch: { content: string }) =>
    SUBJECTS.flatMap((s, i) => (new RegExp(`\\b${s}\\b`).test(ch.content) ? [i] : [])),
  );

const wordsOf = (ch: { content: string }) => ch.content.split(/\s+/).length;

/** Every book chapter read by exactly one course chapter, in order, as consecutive runs. */
function expectConsecutiveRuns(runs: number[][]) {
  expect(runs.flat()).toEqual(SUBJECTS.map((_, i) => i));
  for (const run of runs) expect(run).toEqual(Array.from({ length: run.length }, (_, k) => run[0]! + k));
}

test("asked for as many chapters as the book has parts: one chapter per part, titled by it", async () => {
  const course = await courseOf(3, book());
  expect(course.chapters.map((c: { title: string }) => c.title)).toEqual(PARTS.map((p, i) => `Part ${i + 1}: ${p}`));
  expect(subjectsIn(course)).toEqual([
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
  ]);
}, 300_000);

test("fewer chapters than the book has: consecutive chapters grouped, never across a part when a part fits", async () => {
  const course = await courseOf(5, book());
  const runs = subjectsIn(course);
  expect(runs).toHaveLength(5);
  expectConsecutiveRuns(runs);
  // No course chapter mixes two parts of the book.
  for (const run of runs) expect(new Set(run.map((i) => Math.floor(i / 3))).size).toBe(1);
  const words = course.chapters.map(wordsOf);
  const average = words.reduce((a: number, b: number) => a + b, 0) / words.length;
  expect(Math.max(...words)).toBeLessThanOrEqual(2 * average);
  // A group is titled by the part it is, or by its chapters' headings.
  for (const [i, ch] of course.chapters.entries()) {
    const run = runs[i]!;
    if (run.length === 3) expect(ch.title).toBe(`Part ${run[0]! / 3 + 1}: ${PARTS[run[0]! / 3]}`);
    else for (const c of run) expect(ch.title).toContain(SUBJECTS[c]!);
  }
}, 300_000);

test("more chapters than the book has: chapters split at their sections, in order, each section once", async () => {
  const course = await courseOf(12, book());
  const runs = subjectsIn(course);
  expect(runs).toHaveLength(12);
  // Each course chapter reads within one book chapter, and together they read the book in order.
  for (const run of runs) expect(run).toHaveLength(1);
  expect([...new Set(runs.flat())]).toEqual(SUBJECTS.map((_, i) => i));
  expect(runs.flat()).toEqual([...runs.flat()].sort((a, b) => a - b));
  // Split pieces are titled by the section they begin with.
  const titles: string[] = course.chapters.map((c: { title: string }) => c.title);
  expect(
    titles.filter((t) =>
      /^(Basalt|Granite|Marble|Obsidian|Pumice|Quartzite|Sandstone|Limestone|Slate) (Origins|Structure|Uses)$/.test(t),
    ).length,
  ).toBeGreaterThan(0);
  expect(new Set(titles).size).toBe(titles.length);
}, 300_000);

/** Sentences of the course's chapters that more than one chapter says. */
function sharedSentences(course: any): string[] {
  const owner = new Map<string, number>();
  const shared: string[] = [];
  course.chapters.forEach((ch: { content: string }, i: number) => {
    for (const s of ch.content.split(/(?<=\.)\s+/).filter((x: string) => x.length > 40 && !x.startsWith("#"))) {
      const o = owner.get(s);
      if (o !== undefined && o !== i) shared.push(s);
      else owner.set(s, i);
    }
  });
  return shared;
}

test("a document holding its book three times is taught once, and says so", async () => {
  const once = await courseOf(4, book(), "handbook.md");
  const thrice = await courseOf(4, [book(), book(), book()].join("\n\n"), "handbook-x3.md");

  // The same course as from one copy: same chapters, no chapter twice, no sentence in two chapters.
  const titles = thrice.chapters.map((c: { title: string }) => c.title);
  expect(titles).toEqual(once.chapters.map((c: { title: string }) => c.title));
  expect(new Set(titles).size).toBe(titles.length);
  expectConsecutiveRuns(subjectsIn(thrice));
  expect(sharedSentences(thrice)).toEqual([]);
  // No question asked twice: the same prompt with the same answer (two chapters may ask "which
  // statement about coastal cliffs" of different statements).
  const questions = thrice.chapters.flatMap(
    (c: { quiz: { questions: { prompt: string; choices: string[]; answer: number }[] } }) =>
      c.quiz.questions.map((q) => `${q.prompt} → ${q.choices[q.answer]}`),
  );
  expect(questions.length).toBeGreaterThan(0);
  expect(new Set(questions).size).toBe(questions.length);

  // The document's details name what it repeats: two thirds of its words, from the second copy on.
  const docs = await call(env.srv.url, "/v2/documents", { key: env.key, user: "reader" });
  const id = docs.body.data.find((d: { filename: string }) => d.filename === "handbook-x3.md").id;
  const doc = await call(env.srv.url, `/v2/documents/${id}`, { key: env.key, user: "reader" });
  expect(doc.status).toBe(200);
  const details = doc.body.details;
  expect(details.repeated_words / details.words).toBeCloseTo(2 / 3, 1);
  // One run per extra copy, each repeating the book from its start.
  expect(details.repeated_section_count).toBe(2);
  for (const run of details.repeated_sections) {
    expect(run.first_seen.heading_path[0]).toBe("A Field Guide to Rocks");
    expect(run.words / details.words).toBeCloseTo(1 / 3, 1);
  }
  const single = docs.body.data.find((d: { filename: string }) => d.filename === "handbook.md");
  expect(single.details.repeated_words).toBe(0);

  // And so does the course's description of its sources.
  const [source] = thrice.outline.sources;
  expect(source.document_id).toBe(id);
  expect(source.repeated_words).toBe(details.repeated_words);
  expect(once.outline.sources[0].repeated_words).toBe(0);

  // Another learner cannot read the document.
  expect((await call(env.srv.url, `/v2/documents/${id}`, { key: env.key, user: "someone-else" })).status).toBe(404);
}, 300_000);

test("a book chapter far longer than the rest, with no sections of its own: split where a line heads its paragraphs", async () => {
  // Four short chapters, then one of eight topics, each under a line of its own that no heading
  // marks (an outline's leaf "Attic" of 78 pages, its old announcements under bold lines).
  const TOPICS = ["Agate", "Beryl", "Calcite", "Dolomite", "Epidote", "Feldspar", "Gypsum", "Halite"];
  const lines = ["# A Field Guide to Rocks", ""];
  SUBJECTS.slice(0, 4).forEach((subject, c) => {
    lines.push(`## Chapter ${c + 1}: ${subject}`, "", sentences(subject, c * 100, 10).join(" "), "");
  });
  lines.push("## Chapter 5: Minerals of the Collection", "");
  TOPICS.forEach((topic, t) => {
    lines.push(`${topic} Quarry Reports`, "", sentences(topic, 900 + t * 10, 10).join(" "), "");
  });
  const course = await courseOf(4, lines.join("\n"), "long-chapter.md");

  // The planned span of each chapter, in paragraphs (each paragraph here holds ten sentences).
  const spans = course.outline.chapters.map((c: { parts: { from: number; to: number }[] }) =>
    c.parts.reduce((n, p) => n + p.to - p.from, 0),
  );
  const average = spans.reduce((a: number, b: number) => a + b, 0) / spans.length;
  expect(Math.max(...spans)).toBeLessThanOrEqual(2 * average);
  // Every topic read by one chapter, in order; a chapter opening inside the long one is titled by its first line.
  const runs = course.chapters.map((ch: { content: string }) =>
    TOPICS.flatMap((s, i) => (new RegExp(`\\b${s}\\b`).test(ch.content) ? [i] : [])),
  );
  expect(runs.flat()).toEqual(TOPICS.map((_, i) => i));
  const opening = course.chapters.filter((_: unknown, i: number) => runs[i]!.length > 0 && runs[i]![0]! > 0);
  expect(opening.length).toBeGreaterThan(0);
  for (const ch of opening)
    expect(ch.title).toMatch(/^(Agate|Beryl|Calcite|Dolomite|Epidote|Feldspar|Gypsum|Halite) Quarry Reports/);
}, 300_000);
