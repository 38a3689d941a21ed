/**
 * What the built-in engine teaches from a manual (#28/#29), through HTTP: the reader's exercises
 * (an "Exercises" section, numbered "Exercise N.M" runs, orders after an opening phrase) are never
 * taught, quizzed or carded; a reference section whose body opens on a description of its heading's
 * term is taught as that term's entry and carded with the term; and the course's description says
 * what the manual is about, not where to read more or how its code runs.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { call } from "../helpers/server.ts";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "./helpers.ts";

const TASKS = [
  "Using the tide tables from the harbour office, compute the mean range of the spring tides for one month.",
  "As a more challenging exercise, write a program that predicts the next high water from the last three.",
  "Plot the heights of the tides recorded at the pier against the phase of the moon.",
  "Explain why the neap tides of the equinoxes are smaller than those of the solstices.",
];

const manual = `# Tide Gauges

## 1 Preface

Tide gauges record the height of the sea surface against a fixed benchmark on the shore, and every harbour keeps one. See [IHO-C13] for more information on how tide gauges, float gauges and pressure gauges record the height of the sea surface. All of the code is written to work with the float gauges and the pressure gauges that record the height of the sea surface.

## 2 Gauges

### 2.1 Float gauges

A float gauge measures the height of the sea surface with a float inside a stilling well, a vertical pipe that damps the waves. The float rises and falls with the tide, and a wire over a pulley turns the recording drum. Float gauges are cheap to build, and a float gauge in a stilling well needs cleaning every month because silt settles in the well.

### 2.2 Pressure gauges

A pressure gauge measures the weight of the water above a sensor fixed to the sea bed, and the height of the sea surface follows from the density of the water. Pressure gauges need no stilling well, and a pressure gauge keeps working under ice. Using the density of sea water, the logger converts each pressure reading into a height before it stores it.

### 2.3 Exercises

${TASKS[0]} ${TASKS[1]}

Exercise 2.1. A tide gauge in a stilling well lags the sea surface by a few minutes. ${TASKS[2]}

Exercise 2.2. ${TASKS[3]}

## 3 Logger settings

### 3.1 SAMPLE_RATE

The number of pressure readings the logger averages into one stored height, from one to sixty, so that a higher rate smooths the waves out of the record.

### 3.2 DATUM_OFFSET

The height of the chart datum below the gauge's benchmark, in millimetres, which the logger adds to every stored height.

### 3.3 Storage

The logger stores heights on a memory card in files of one day each, and the files are named by the date. A full memory card holds about ten years of heights at the default rate.`;

let env: CourseEnv;
let course: { id: string; description: string; chapters: { content: string; quiz: unknown }[] };
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
  course = await syncCourse(env, filesForm({ num_chapters: "2" }, [{ name: "tide-gauges.md", content: manual }]));
}, 240_000);
afterAll(() => env.stop());

const post = async (path: string, json: object) => {
  const r = await call(env.srv, `/v2/courses/${course.id}/${path}`, { key: env.key, user: "reader", json });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

test("the reader's exercises are not taught, quizzed or carded", async () => {
  const cards = await post("generate-flashcards", {});
  const everything = JSON.stringify([course.chapters, cards]);
  // The chapters teach the sections around them.
  expect(everything).toContain("stilling well");
  for (const task of TASKS) expect(everything).not.toContain(task.slice(0, 40));
  expect(everything).not.toContain("lags the sea surface");
}, 240_000);

test("a reference entry's description is taught and carded with the term it describes", async () => {
  const content = course.chapters.map((c) => c.content).join("\n\n");
  // Markdown escapes the underscore ("SAMPLE\\_RATE").
  expect(content).toMatch(/SAMPLE\\?_RATE — The number of pressure readings the logger averages/);
  expect(content).toMatch(/DATUM\\?_OFFSET — The height of the chart datum below/);
  expect(content).not.toMatch(/\n\nThe (number of pressure readings|height of the chart datum)/);
  const deck = (await post("generate-flashcards", {})) as { flashcards: { cards: { front: string; back: string }[] } };
  const rate = deck.flashcards.cards.find((c) => c.back.includes("pressure readings the logger averages"));
  expect(rate?.front).toContain("SAMPLE_RATE");
}, 240_000);

test("the course's description says what the manual is about, not where to read more or how its code runs", () => {
  // Beyond the line naming what it covers, a sentence of the manual's own.
  expect(course.description.split(/(?<=\.)\s+/).length).toBeGreaterThan(1);
  expect(course.description).not.toContain("IHO-C13");
  expect(course.description).not.toContain("All of the code");
});
