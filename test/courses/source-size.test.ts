/**
 * One course reads at most COURSE_MAX_SOURCE_WORDS words of teaching text (#32): past it the course
 * is refused with 413 COURSE_SOURCES_TOO_LARGE, counted across its sources, and nothing stored is
 * lost: the learner's earlier course and the sources themselves (indexed documents) stay.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { call, errorOf } from "../helpers/server.ts";
import { type CourseEnv, courseEnv, filesForm } from "./helpers.ts";
import { LIGHT_REACTIONS } from "./sources.ts";

setDefaultTimeout(120_000);

const LIMIT = 1000;
const USER = "reader";
let env: CourseEnv;

beforeAll(async () => {
  env = await courseEnv({ extractive: true, env: { COURSE_MAX_SOURCE_WORDS: String(LIMIT) } });
});
afterAll(() => env.stop());

/** A handbook of `sections` sections of distinct sentences, about 60 words each. */
function handbook(title: string, sections: number): string {
  const parts = [`# ${title}`];
  for (let i = 1; i <= sections; i++) {
    parts.push(
      `## Topic ${i}\n\nMeasurement ${i} of the harbour records the water level at ${i} places along the quay. ` +
        `Each reading number ${i} is compared with the tide table printed for section ${i} of the almanac. ` +
        `Keepers of station ${i} write the difference into their log before the ${i}th bell of the watch rings.`,
    );
  }
  return parts.join("\n\n");
}

const generate = (files: { name: string; content: string }[]) =>
  call(env.srv, "/v2/courses/generate-from-files?mode=sync", {
    key: env.key,
    user: USER,
    body: filesForm(
      { num_chapters: "2" },
      files.map((f) => ({ ...f, type: "text/markdown" })),
    ),
  });

test("a course past the bound is refused with 413 and its code; the earlier course and every source stay", async () => {
  const first = await generate([{ name: "light.md", content: LIGHT_REACTIONS }]);
  expect(first.status).toBe(200);
  const kept = first.body.course.id as string;

  const big = await generate([{ name: "harbour.md", content: handbook("Harbour measurements", 40) }]);
  expect(big.status).toBe(413);
  const error = errorOf(big);
  expect(error.code).toBe("COURSE_SOURCES_TOO_LARGE");
  // The message says how much the sources hold against the bound and its setting.
  const held = Number(/([\d,]+) words/.exec(error.message)?.[1]?.replace(/,/g, ""));
  expect(held).toBeGreaterThan(LIMIT);
  expect(error.message).toContain(`at most ${LIMIT.toLocaleString("en-US")} (COURSE_MAX_SOURCE_WORDS)`);

  // Counted across the sources: two halves, each within the bound, are refused together.
  const halves = await generate([
    { name: "north.md", content: handbook("North quay", 12) },
    { name: "south.md", content: handbook("South quay", 12) },
  ]);
  expect(halves.status).toBe(413);
  expect(errorOf(halves).code).toBe("COURSE_SOURCES_TOO_LARGE");

  const course = await call(env.srv, `/v2/courses/${kept}`, { key: env.key, user: USER });
  expect(course.status).toBe(200);
  expect(course.body.chapters.length).toBeGreaterThan(0);
  const docs = await call(env.srv, "/v2/documents?limit=50", { key: env.key, user: USER });
  const ready = (docs.body.data as { filename: string; status: string }[])
    .filter((d) => d.status === "ready")
    .map((d) => d.filename)
    .sort();
  expect(ready).toEqual(["harbour.md", "light.md", "north.md", "south.md"]);

  // Within the bound, a course is still built.
  const small = await generate([{ name: "north-again.md", content: handbook("North quay", 12) }]);
  expect(small.status).toBe(200);
});
