/**
 * A PDF glossary set in two columns (each term at the left, its definition beside it at a fixed
 * indent and running on under itself, a source note under some terms) reads "term — definition",
 * as an HTML definition list does: read line by line, the terms became paragraphs of their own and
 * a course chapter taught the definitions without the words they define. A drop cap (a paragraph's
 * first letter set several lines tall) goes back to its word: "his chapter describes" and a stray
 * "T" became "This chapter describes". Two columns of prose on one page stay prose.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from "pdf-lib";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "../courses/helpers.ts";
import { call } from "../helpers/server.ts";

const SIZE = 10.5;
const TERM_X = 72;
const DEFINITION_X = 200;

/** A term, its definition's lines as set in the right column, and a source note under the term. */
type Entry = [term: string, lines: string[], note?: string];

const ENTRIES: Entry[] = [
  [
    "access token",
    [
      "A short-lived credential that a client presents with each",
      "request to show which user it acts for and what that user",
      "has allowed it to do on the user's behalf.",
    ],
    "[RFC 6749]",
  ],
  [
    "audit trail",
    [
      "A chronological record of who did what to the system and when,",
      "kept so that events can be reconstructed afterwards.",
    ],
  ],
  [
    "least privilege",
    [
      "The principle that every user and process is given only the",
      "permissions its task needs, and no more, for no longer than needed.",
    ],
    "[SP 800-53]",
  ],
  [
    "replay attack",
    [
      "An attack in which a valid message is captured and sent again",
      "later to repeat its effect without the sender's consent.",
    ],
  ],
  ["session key", ["A key used for one communication session only, then discarded."]],
];

const definitionOf = ([, lines]: Entry) => lines.join(" ");

function drawGlossary(page: PDFPage, regular: PDFFont, bold: PDFFont): void {
  let y = 780;
  page.drawText("Glossary", { x: TERM_X, y, size: 18, font: bold });
  y -= 30;
  page.drawText("The terms below are used throughout this guide with the meanings given here.", {
    x: TERM_X,
    y,
    size: SIZE,
    font: regular,
  });
  y -= 26;
  for (const [term, lines, note] of ENTRIES) {
    page.drawText(term, { x: TERM_X, y, size: SIZE, font: bold });
    if (note) page.drawText(note, { x: TERM_X, y: y - 12.5, size: SIZE - 1, font: regular });
    for (const line of lines) {
      page.drawText(line, { x: DEFINITION_X, y, size: SIZE, font: regular });
      y -= 12.5;
    }
    y -= note && lines.length < 2 ? 20 : 8;
  }
}

/** A chapter opening with a drop cap: "T" four lines tall beside "his chapter …". */
const CHAPTER_LINES = [
  "his chapter describes how a service proves who is calling it and what",
  "the caller may do, from the first request of a session to its end, and",
  "why each step exists. Every protocol described later builds on these",
  "steps, so the chapter is worth reading before any other part of the guide.",
  "Authentication establishes identity; authorization decides what that identity may do.",
];

function drawChapter(page: PDFPage, regular: PDFFont, bold: PDFFont): void {
  page.drawText("1 Identity", { x: 72, y: 780, size: 18, font: bold });
  let y = 740;
  for (const [i, line] of CHAPTER_LINES.entries()) {
    page.drawText(line, { x: i < 4 ? 112 : 72, y, size: SIZE, font: regular });
    y -= 13;
  }
  // Drawn last, as typesetters often emit it: the letter spans the first four lines.
  page.drawText("T", { x: 72, y: 740 - 3 * 13, size: 4 * 13, font: regular });
}

/** Two columns of prose sharing baselines: a paper's page, never a glossary. */
const LEFT = [
  "Replication keeps copies of the data on several",
  "machines so that the loss of one of them loses",
  "nothing that was written. Each write goes to a",
  "leader, which sends it to the followers in order.",
  "Reads can go to any copy once it has caught up.",
];
const RIGHT = [
  "Partitioning splits the data between machines so",
  "that each holds a part and the parts together hold",
  "everything. A key decides where its record lives,",
  "and a request for the key goes to that machine.",
  "Both are combined in most large databases today.",
];

function drawColumns(page: PDFPage, regular: PDFFont, bold: PDFFont): void {
  page.drawText("2 Scaling out", { x: 72, y: 780, size: 18, font: bold });
  for (let i = 0; i < LEFT.length; i++) {
    page.drawText(LEFT[i]!, { x: 72, y: 740 - i * 13, size: SIZE, font: regular });
    page.drawText(RIGHT[i]!, { x: 315, y: 740 - i * 13, size: SIZE, font: regular });
  }
}

async function guidePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
  drawChapter(doc.addPage([595, 842]), regular, bold);
  drawColumns(doc.addPage([595, 842]), regular, bold);
  drawGlossary(doc.addPage([595, 842]), regular, bold);
  return doc.save();
}

let env: CourseEnv;
let pdf: Uint8Array;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
  pdf = await guidePdf();
});
afterAll(() => env.stop());

async function extractedMarkdown(): Promise<string> {
  const form = new FormData();
  form.append("files", new File([pdf.slice()], "guide.pdf", { type: "application/pdf" }));
  const res = await call(env.srv, "/v2/documents/extract", { method: "POST", key: env.key, body: form });
  expect(res.status).toBe(200);
  return res.body.documents[0].markdown;
}

test("a two-column glossary reads term — definition, each definition whole, its source note kept", async () => {
  const markdown = await extractedMarkdown();
  for (const entry of ENTRIES) {
    const note = entry[2] ? ` ${entry[2].replace(/[[\]]/g, "\\$&")}` : "";
    expect(`${markdown}\n`).toContain(`\n${entry[0]} — ${definitionOf(entry)}${note}\n`);
  }
  // No definition stands without its term, and no term as a paragraph of its own.
  for (const entry of ENTRIES) {
    expect(markdown).not.toMatch(new RegExp(`(^|\\n)${entry[1][0]!.slice(0, 20)}`));
    expect(markdown).not.toMatch(new RegExp(`(^|\\n)${entry[0]}\\n`));
  }
}, 120_000);

test("a drop cap goes back to its word, and two columns of prose stay prose", async () => {
  const markdown = await extractedMarkdown();
  expect(markdown).toContain("This chapter describes how a service proves who is calling it");
  expect(markdown).not.toMatch(/(^|\n)his chapter/);
  expect(markdown).not.toMatch(/(^|\n)T\n/);
  // Only the glossary's entries carry the dash: the prose columns were not read as terms.
  expect(markdown.match(/ — /g)?.length).toBe(ENTRIES.length);
}, 120_000);

test("a course teaches the glossary's definitions with their terms, and its flashcards define them", async () => {
  const course = await syncCourse(
    env,
    filesForm({ num_chapters: "2" }, [{ name: "guide.pdf", content: pdf, type: "application/pdf" }]),
  );
  const content = course.chapters.map((c: { content: string }) => c.content).join("\n\n");
  const taught = ENTRIES.filter((e) => content.includes(definitionOf(e).slice(0, 40)));
  expect(taught.length).toBeGreaterThan(0);
  for (const e of taught) expect(content).toContain(`${e[0]} — ${definitionOf(e).slice(0, 40)}`);

  const res = await call(env.srv, `/v2/courses/${course.id}/generate-flashcards`, {
    method: "POST",
    key: env.key,
    user: "reader",
    json: {},
  });
  expect(res.status).toBe(200);
  const cards: { front: string; back: string }[] = res.body.flashcards.cards;
  // Each taught entry is a card: its term on the front, its definition (not the dash) on the back.
  for (const e of taught) {
    const card = cards.find((c) => c.front.toLowerCase() === e[0]);
    if (!card) console.log("CARDS", e[0], JSON.stringify(cards), JSON.stringify(content));
    expect(card?.back).toContain(e[1][0]!.slice(0, 30));
    expect(card?.back).not.toMatch(/^—/);
  }
}, 300_000);
