/**
 * A formula displayed over several lines after a sentence that ends with a colon ("… as follows:")
 * is one block: a fraction's numerator, the line with its bar and its denominator, or the steps of
 * an aligned derivation. Set line by line, each line ends far short of the right margin, which
 * otherwise ends a paragraph per line, and a course chapter then kept at most the lines that
 * looked like mathematics on their own (a denominator "n" is not). The prose under the display is a
 * paragraph of its own.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from "pdf-lib";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "../courses/helpers.ts";
import { call } from "../helpers/server.ts";

const SIZE = 11;

/** A display line: its text and where it starts, in points from the page's left edge. */
type DisplayLine = [text: string, x: number, gapBelow: number];

const MEAN_DISPLAY: DisplayLine[] = [
  ["x1 + x2 + ... + xn", 270, 10],
  ["mean =", 215, 12],
  ["n", 308, 14],
];
const VARIANCE_DISPLAY: DisplayLine[] = [
  ["Var(X) = E((X - mu)^2)", 200, 16],
  ["= E(X^2) - 2 mu E(X) + mu^2", 245, 16],
  ["= E(X^2) - mu^2", 245, 14],
];

type Line = { heading: string } | { text: string } | { display: DisplayLine[] };

const PAGES: Line[][] = [
  [
    { heading: "1 Averages" },
    { text: "An average summarises a list of measurements with one number that stands for all of them, and" },
    { text: "the arithmetic mean is the average that most programs compute when they report on their data." },
    { text: "The mean of the measurements x1, x2 and so on up to xn is defined as follows:" },
    { display: MEAN_DISPLAY },
    { text: "The mean adds every value of the list and divides the sum by how many values the list holds, so" },
    { text: "a list of one value has that value as its mean, whatever the value happens to be in the data." },
  ],
  [
    { heading: "2 Spread" },
    { text: "The spread of a list tells how far its values lie from their mean, and the variance measures it" },
    { text: "as the mean of the squared distances between each value of the list and the mean of the list." },
    { text: "The variance of a random variable X with mean mu is expanded in three steps as follows:" },
    { display: VARIANCE_DISPLAY },
    { text: "The last line is the form most programs use, because one pass over the data computes both the" },
    { text: "sum of the values and the sum of their squares before the variance of the list is returned." },
  ],
];

function drawPage(page: PDFPage, lines: Line[], prose: PDFFont, italic: PDFFont, bold: PDFFont): void {
  let y = 760;
  for (const l of lines) {
    if ("heading" in l) {
      page.drawText(l.heading, { x: 72, y, size: 16, font: bold });
      y -= 28;
    } else if ("text" in l) {
      page.drawText(l.text, { x: 72, y, size: SIZE, font: prose });
      y -= 14;
    } else {
      y -= 10;
      for (const [text, x, gap] of l.display) {
        page.drawText(text, { x, y, size: SIZE, font: italic });
        y -= gap;
      }
      y -= 10;
    }
  }
}

/** Prose in Times at the 72 pt margin; displays in Times Italic, set in from it, line by line. */
async function formulaPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const prose = await doc.embedFont(StandardFonts.TimesRoman);
  const italic = await doc.embedFont(StandardFonts.TimesRomanItalic);
  const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
  for (const lines of PAGES) drawPage(doc.addPage([595, 842]), lines, prose, italic, bold);
  return doc.save();
}

let env: CourseEnv;
let pdf: Uint8Array;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
  pdf = await formulaPdf();
});
afterAll(() => env.stop());

/** A display's lines as extracted markdown writes a paragraph's lines (a leading "=" escaped). */
const displayMarkdown = (d: DisplayLine[]) => d.map(([t]) => t.replace(/^=/, "\\=")).join("\n");

test("extracted markdown keeps a display formula's lines together after the sentence that announces it", async () => {
  const form = new FormData();
  form.append("files", new File([pdf.slice()], "formulas.pdf", { type: "application/pdf" }));
  const res = await call(env.srv, "/v2/documents/extract", { method: "POST", key: env.key, body: form });
  expect(res.status).toBe(200);
  const markdown: string = res.body.documents[0].markdown;
  expect(markdown).toContain(`is defined as follows:\n\n${displayMarkdown(MEAN_DISPLAY)}\n\nThe mean adds`);
  expect(markdown).toContain(`in three steps as follows:\n\n${displayMarkdown(VARIANCE_DISPLAY)}\n\nThe last line`);
}, 120_000);

test("a course chapter keeps the whole formula after the sentence that introduces it", async () => {
  const course = await syncCourse(
    env,
    filesForm({ num_chapters: "2" }, [{ name: "formulas.pdf", content: pdf, type: "application/pdf" }]),
  );
  const content = course.chapters.map((c: { content: string }) => c.content).join("\n\n");
  const inline = (d: DisplayLine[]) => d.map(([t]) => t).join(" ");
  expect(content).toContain(`is defined as follows:\n\n${inline(MEAN_DISPLAY)}`);
  expect(content).toContain(`in three steps as follows:\n\n${inline(VARIANCE_DISPLAY)}`);
}, 300_000);
