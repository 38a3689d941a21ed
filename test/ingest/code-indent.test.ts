/**
 * A PDF's code listing keeps its indentation. PDF text has positions, not leading spaces: a
 * typesetter places each line of a listing at its own x (TeX does), or writes the spaces into the
 * run. Either way the extracted markdown and a course chapter show the listing indented as printed,
 * measured from the listing's own left edge (not the page margin), in characters of its font.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "../courses/helpers.ts";
import { call } from "../helpers/server.ts";

const CODE_SIZE = 10;
// Courier's advance is 600/1000 of its size.
const ADVANCE = CODE_SIZE * 0.6;

/** A listing line: its text and how many characters it is indented, set by position or by spaces. */
type Row = [text: string, indent: number, by?: "spaces"];

const MEAN: Row[] = [
  ["def mean(values):", 0],
  ["total = 0", 4],
  ["for v in values:", 4],
  ["total += v", 8],
  ["return total / len(values)", 4, "spaces"],
];
const MEAN_TEXT = [
  "def mean(values):",
  "    total = 0",
  "    for v in values:",
  "        total += v",
  "    return total / len(values)",
].join("\n");

const CLASSIFY: Row[] = [
  ["def classify(n):", 0],
  ["if n < 0:", 4],
  ['return "negative"', 8],
  ["if n == 0:", 4],
  ['return "zero"', 8, "spaces"],
  ['return "positive"', 4],
];
const CLASSIFY_TEXT = [
  "def classify(n):",
  "    if n < 0:",
  '        return "negative"',
  "    if n == 0:",
  '        return "zero"',
  '    return "positive"',
].join("\n");

type Line = { text: string } | { heading: string } | { code: Row[] };

const PAGES: Line[][] = [
  [
    { heading: "1 Averages" },
    { text: "An average summarises a list of measurements with one number that stands for all of them, and" },
    { text: "the arithmetic mean is the average most programs compute when they report on their data." },
    { text: "The mean adds every value of the list and divides the sum by how many values the list holds." },
    { text: "A function that computes the mean of a list of numbers is written as follows:" },
    { code: MEAN },
    { text: "The loop visits each value once, so the time the function takes grows with the list's length." },
    { text: "An empty list has no mean, and the division fails when the function is given one to average." },
  ],
  [
    { heading: "2 Decisions" },
    { text: "A program decides between courses of action by testing conditions, and each test sends the" },
    { text: "computation down one branch or another depending on whether the condition holds for its input." },
    { text: "Conditions are checked in order, and the first one that holds chooses the branch that runs." },
    { text: "For example, the following function names the sign of a number with three branches:" },
    { code: CLASSIFY },
    { text: "Every number reaches exactly one of the return statements, so the function always answers." },
    { text: "Tests that cover each branch once show that no condition was written the wrong way round." },
  ],
];

/** The pages in Helvetica, the listings in Courier at 80 pt, the prose margin at 50 pt. */
async function listingPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const prose = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const mono = await doc.embedFont(StandardFonts.Courier);
  for (const lines of PAGES) {
    const page = doc.addPage([595, 842]);
    let y = 760;
    for (const l of lines) {
      if ("heading" in l) {
        page.drawText(l.heading, { x: 50, y, size: 16, font: bold });
        y -= 28;
      } else if ("text" in l) {
        page.drawText(l.text, { x: 50, y, size: 11, font: prose });
        y -= 14;
      } else {
        for (const [text, indent, by] of l.code) {
          const [x, s] = by === "spaces" ? [80, " ".repeat(indent) + text] : [80 + indent * ADVANCE, text];
          page.drawText(s, { x, y, size: CODE_SIZE, font: mono });
          y -= 12;
        }
      }
    }
  }
  return doc.save();
}

let env: CourseEnv;
let pdf: Uint8Array;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
  pdf = await listingPdf();
});
afterAll(() => env.stop());

const fenced = (code: string) => `\`\`\`\n${code}\n\`\`\``;

test("extracted markdown shows a PDF listing indented as printed", async () => {
  const form = new FormData();
  form.append("files", new File([pdf.slice()], "listings.pdf", { type: "application/pdf" }));
  const res = await call(env.srv, "/v2/documents/extract", { method: "POST", key: env.key, body: form });
  expect(res.status).toBe(200);
  const markdown: string = res.body.documents[0].markdown;
  expect(markdown).toContain(fenced(MEAN_TEXT));
  expect(markdown).toContain(fenced(CLASSIFY_TEXT));
}, 120_000);

test("a course chapter keeps the listing's indentation after the sentence that introduces it", async () => {
  const course = await syncCourse(
    env,
    filesForm({ num_chapters: "2" }, [{ name: "listings.pdf", content: pdf, type: "application/pdf" }]),
  );
  const content = course.chapters.map((c: { content: string }) => c.content).join("\n\n");
  expect(content).toContain(`is written as follows:\n\n${fenced(MEAN_TEXT)}`);
  expect(content).toContain(`with three branches:\n\n${fenced(CLASSIFY_TEXT)}`);
}, 300_000);
