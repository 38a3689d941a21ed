/**
 * A section too thin to teach on its own (a single sentence) joins its neighbour instead of
 * becoming a course chapter of one sentence.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { splitSentences } from "../../src/ingest/sentences.ts";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "./helpers.ts";

const BRIDGE =
  "Having seen how basalt forms where lava cools quickly at the surface, we now turn from the rocks that erupt to the rocks that cool slowly deep underground and never reach the light at all.";

/** A few varied sentences about a rock, so no two sections share eight words in a row. */
const about = (rock: string, seed: number) =>
  [
    `${rock} is found near site ${seed} in the northern valleys, where surveyors logged ${seed * 3 + 11} outcrops during the first season.`,
    `Its grains measure about ${seed % 7} millimetres across at site ${seed}, and the colour shifts from grey to ${seed % 2 ? "pink" : "brown"} as it weathers.`,
    `Quarry workers split ${rock.toLowerCase()} along planes that run ${seed % 3 ? "north" : "east"} at site ${seed}, which decides how the blocks are cut.`,
    `Samples of ${rock.toLowerCase()} from site ${seed} were dated to ${seed * 10 + 40} million years by the survey laboratory.`,
  ].join(" ");

const book = [
  "# Rocks of the Valley",
  "## 1 Basalt",
  ...[1, 2, 3].flatMap((s) => [`### 1.${s} Basalt site ${s}`, about("Basalt", s)]),
  "## 2 From Surface to Depth",
  BRIDGE,
  "## 3 Granite",
  ...[1, 2, 3].flatMap((s) => [`### 3.${s} Granite site ${s}`, about("Granite", 10 + s)]),
  "## 4 Marble",
  ...[1, 2, 3].flatMap((s) => [`### 4.${s} Marble site ${s}`, about("Marble", 20 + s)]),
].join("\n\n");

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(() => env.stop());

test("a one-sentence section is taught inside a neighbouring chapter, never as a chapter of its own", async () => {
  const course = await syncCourse(env, filesForm({ num_chapters: "4" }, [{ name: "rocks.md", content: book }]));
  expect(course.chapters).toHaveLength(4);
  for (const ch of course.chapters as { title: string; content: string }[]) {
    const prose = ch.content
      .split("\n\n")
      .filter((p) => !p.startsWith("#"))
      .join(" ");
    expect(splitSentences(prose).length).toBeGreaterThanOrEqual(2);
  }
  expect(course.chapters.map((c: { title: string }) => c.title)).not.toContain("From Surface to Depth");
}, 180_000);
