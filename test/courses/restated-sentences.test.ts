/**
 * A sentence a document says again in other punctuation (a program's one-line description in its
 * opening, restated without a comma in a release notice chapters later) is taught once, where it
 * first stands: no course chapter repeats it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "./helpers.ts";

const BLURB_OPENING =
  "Tessellate is a map drawing program, devoted to producing the clearest printed road atlases possible.";
const BLURB_NOTICE =
  "Tessellate is a map drawing program devoted to producing the clearest printed road atlases possible.";

const CHAPTERS: [string, string[]][] = [
  [
    "Introduction",
    [
      BLURB_OPENING,
      "It lays out roads, rivers and railways from survey files and labels every town without overlaps.",
      "Cartographers use it to print regional atlases that stay legible at small scales.",
      "Each atlas page is composed from tiles that share their edges, so a road never breaks at a fold.",
      "Symbols for churches, stations and viewpoints come from a catalogue the user may extend.",
    ],
  ],
  [
    "Drawing roads",
    [
      "Roads are drawn as ribbons whose width follows their class, from motorways down to farm tracks.",
      "Junctions are smoothed so that slip roads meet the carriageway at believable angles.",
      "Bridges lift the upper road over the lower one with a pale casing on both edges.",
      "Tunnels are dashed where the road passes under hills, with portals marked at either end.",
      "Road numbers sit in shields placed at regular intervals along the ribbon's centre line.",
    ],
  ],
  [
    "Release notes",
    [
      "We are proud to announce version four, released after two years of work on labels.",
      BLURB_NOTICE,
      "This version places town names along curved coastlines and prints contour lines in brown.",
      "Older survey files are converted on loading, and their grid references are kept for search.",
      "Printing is faster because hill shading is computed once per sheet rather than per tile.",
    ],
  ],
];

const document = [
  "# Tessellate manual",
  "",
  ...CHAPTERS.flatMap(([title, sentences]) => [`## ${title}`, "", sentences.join(" "), ""]),
].join("\n");

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(() => env.stop());

const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

test("a sentence restated with other punctuation is taught in one chapter only", async () => {
  const course = await syncCourse(
    env,
    filesForm({ num_chapters: "3" }, [{ name: "tessellate.md", content: document }]),
  );
  const blurb = words(BLURB_NOTICE);
  const saying = course.chapters.filter((c: { content: string }) => words(c.content).includes(blurb));
  expect(course.chapters).toHaveLength(3);
  expect(saying).toHaveLength(1);
}, 180_000);
