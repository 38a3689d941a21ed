/**
 * A course chapter that groups several of a book's chapters is named for what it covers: the part
 * it covers where the book has parts, else its first body chapter. A short preface before the
 * chapters joins the chapter beside it rather than standing alone, and never names the group.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "./helpers.ts";

const SUBJECTS = ["Basalt", "Granite", "Marble", "Obsidian", "Pumice", "Quartzite", "Sandstone", "Limestone", "Slate"];
const PARTS = ["Volcanic Rocks", "Metamorphic Rocks", "Sedimentary Rocks"];

// Varied sentences (a seeded generator), so the book never repeats eight words in a row by accident.
function sentences(subject: string, seed: number, n: number): string[] {
  let x = seed;
  const pick = <T>(xs: T[]) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return xs[x % xs.length]!;
  };
  const verbs = ["forms", "weathers", "fractures", "erodes", "hardens", "cools", "shifts", "settles"];
  const things = ["crystals", "grains", "layers", "veins", "pores", "minerals", "cliffs", "boulders"];
  const places = ["river valleys", "mountain passes", "coastal cliffs", "quarries", "desert plateaus"];
  return Array.from(
    { length: n },
    (_, i) =>
      `${subject} ${pick(verbs)} into ${pick(["coarse", "fine", "dark", "pale", "banded"])} ${pick(things)} near ${pick(places)}, and geologists counted ${17 + ((seed * 31 + i * 7) % 900)} ${pick(things)} of it at site ${seed}-${i}.`,
  );
}

const PREFACE =
  "This guide was written for walkers who pick up stones and wonder where they came from. It needs no training in geology, only curiosity and a hand lens, and each chapter can be read on its own.";

/**
 * A markdown book: a short preface, then nine chapters of three sections each, in three parts when
 * `parts`; chapters headed "Chapter n: Subject" when `numbered`, else by the subject alone (and a
 * clause after it with `longTitles`, too long to join three of them in a title; a short question
 * "Why Subject?" with `questions`).
 */
function book(opts: { parts: boolean; numbered: boolean; longTitles?: boolean; questions?: boolean }): string {
  const lines = ["# A Field Guide to Rocks", "", "## Preface", "", PREFACE, ""];
  const h = opts.parts ? "###" : "##";
  SUBJECTS.forEach((subject, c) => {
    if (opts.parts && c % 3 === 0) lines.push(`## Part ${c / 3 + 1}: ${PARTS[c / 3]}`, "");
    const title = opts.longTitles
      ? `${subject}: where it forms and how it weathers`
      : opts.questions
        ? `Why ${subject}?`
        : subject;
    lines.push(`${h} ${opts.numbered ? `Chapter ${c + 1}: ` : ""}${title}`, "");
    for (let s = 1; s <= 3; s++) {
      lines.push(`${h}# ${subject} ${["Origins", "Structure", "Uses"][s - 1]}`, "");
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

const titlesOf = async (content: string, chapters: number) => {
  const course = await syncCourse(env, filesForm({ num_chapters: String(chapters) }, [{ name: "rocks.md", content }]));
  return course.chapters.map((c: { title: string }) => c.title) as string[];
};

test("a book with parts and a preface: one chapter per part, each titled by its part", async () => {
  expect(await titlesOf(book({ parts: true, numbered: true }), 3)).toEqual(PARTS.map((p, i) => `Part ${i + 1}: ${p}`));
}, 180_000);

test("a book with parts, its chapters unnumbered: a part split in two is titled by its chapters, with no number the book does not print", async () => {
  const titles = await titlesOf(book({ parts: true, numbered: false }), 4);
  expect(titles).toHaveLength(4);
  for (const t of titles) expect(t).not.toContain("Preface");
  const wholeParts = titles.filter((t) => PARTS.some((p) => t.endsWith(p)));
  expect(wholeParts).toHaveLength(2);
  for (const t of titles.filter((t) => !wholeParts.includes(t))) {
    expect(t).not.toMatch(/^Chapters \d/);
    expect(SUBJECTS).toContain(t.split(/,| and | through /)[0]!);
  }
}, 180_000);

test("a book without parts: a group opening with the preface is titled by its first chapter, never the preface", async () => {
  const titles = await titlesOf(book({ parts: false, numbered: true }), 2);
  expect(titles).toHaveLength(2);
  // Its chapters joined while short, else "Chapters 1–n: Basalt".
  expect(titles[0]).toMatch(/^(Chapters 1–\d: )?Basalt\b/);
  for (const t of titles) expect(t).not.toContain("Preface");
}, 180_000);

test("a book without parts or numbers: a group opening with the preface is titled and counted from its first chapter", async () => {
  const titles = await titlesOf(book({ parts: false, numbered: false }), 2);
  expect(titles).toHaveLength(2);
  // The preface has no sections where every chapter has three: it opens the book and is no chapter of it.
  expect(titles[0]).toMatch(/^Basalt\b/);
  for (const t of titles) expect(t).not.toContain("Preface");
}, 180_000);

test("a book that numbers nothing, its titles long: a group is titled by its first and last chapters, never by numbers it does not print", async () => {
  const titles = await titlesOf(book({ parts: false, numbered: false, longTitles: true }), 3);
  expect(titles).toHaveLength(3);
  for (const t of titles) {
    expect(t).not.toMatch(/^Chapters \d/);
    expect(t).toMatch(/^(\w+): where it forms and how it weathers through (\w+): where it forms/);
  }
}, 180_000);

test("a numbered book whose chapters are questions: a group is titled by its numbers and first question, not a list of questions", async () => {
  const titles = await titlesOf(book({ parts: false, numbered: true, questions: true }), 3);
  expect(titles).toHaveLength(3);
  // "Why Basalt?, Why Granite? and Why Marble?" reads as broken sentences.
  for (const t of titles) expect(t).toMatch(/^Chapters \d–\d: Why \w+\?$/);
}, 180_000);
