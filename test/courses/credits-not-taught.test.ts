/**
 * Whom a book thanks is not what it teaches: an editor's note whose thanks run as a list of people
 * and what each did is kept out of the course (chapters, quizzes, flashcards), while the note's own
 * prose and a manual's numbered section that happens to be called "Abstract" are taught.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { call } from "../helpers/server.ts";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "./helpers.ts";

const THANKS = [
  "For helping make this guide possible, I would like to thank:",
  "Julie Marten, P.P.A., for editing several drafts at every stage and for her patience with late changes.",
  "Lisa (Opus) Vantongeren and Bradley M. Kuhlmann for their help in organising and proofreading the text.",
  "Claire H. Avilar, Richard Bucknell, and (especially) Stephen Compton for reading every draft twice.",
  "Mats Bengtorp for setting the tables and figures of the printed edition.",
  "Etienne Suvalle for the drawings that open each chapter.",
];
const PEOPLE = ["Marten", "Vantongeren", "Kuhlmann", "Avilar", "Bucknell", "Compton", "Bengtorp", "Suvalle"];

const note = `## 1 Editor's Note

A survey of the lava fields takes three seasons of survey work, and a newcomer follows every step of it from the first traverse to the final map.

${THANKS.join("\n\n")}`;

const chapter = (n: number, title: string, body: string[]) =>
  `## ${n} ${title}\n\n${body.map((b, i) => `### ${n}.${i + 1} ${b.split(":")[0]}\n\n${b.split(":")[1]!.trim()}`).join("\n\n")}`;

const book = [
  "# Surveying Lava Fields",
  note,
  chapter(2, "Traverses", [
    "Planning: A traverse is a line walked across the field with a compass and a tape, and every change of rock along it is logged with its distance from the start. Surveyors plan traverses across the flow direction so that each line crosses as many flow units as possible.",
    "Logging: Each log entry gives the distance, the rock type, the surface texture and any contact seen, and a sketch is drawn wherever a contact bends. The log is copied each evening so that a lost notebook never loses a day of work.",
  ]),
  chapter(3, "Samples", [
    "Collecting: Samples are broken from fresh rock with a hammer, labelled with the traverse and distance, and bagged at once. A sample of weathered rock tells little about the lava that erupted, so surveyors dig past the weathered rind.",
    "Abstract: The abstract of a survey report states in one paragraph what was mapped, how the flows were dated and what the map shows. Readers who skim a report read the abstract first, so it names every flow unit that the map distinguishes.",
  ]),
].join("\n\n");

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(() => env.stop());

test("a thanks list of people is not taught; a numbered section called Abstract is", async () => {
  const course = await syncCourse(env, filesForm({ num_chapters: "3" }, [{ name: "lava.md", content: book }]));
  const content = course.chapters.map((c: { content: string }) => c.content).join("\n\n");
  expect(content).toContain("three seasons of survey work");
  expect(content).toContain("The abstract of a survey report states in one paragraph what was mapped");
  const cards = await call(env.srv, `/v2/courses/${course.id}/generate-flashcards`, {
    key: env.key,
    user: "reader",
    json: {},
  });
  expect(cards.status).toBe(200);
  const everything = JSON.stringify([course.chapters, cards.body]);
  for (const person of PEOPLE) expect(everything).not.toContain(person);
  expect(everything).not.toContain("I would like to thank");
}, 180_000);
