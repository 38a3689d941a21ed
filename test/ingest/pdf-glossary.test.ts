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

/** Lines drawn at an edge, one under another at the definitions' pitch, from `y` down. */
function drawLines(page: PDFPage, font: PDFFont, x: number, y: number, lines: string[]): number {
  for (const line of lines) {
    page.drawText(line, { x, y, size: SIZE, font });
    y -= 12.5;
  }
  return y;
}

/** The page before's last definition runs on here: its last lines open the page, with no term. */
const RUN_ON = [
  "and for the protection of the information it processes, stores,",
  "or transmits over its whole life cycle.",
];

async function longGlossaryPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
  const first = doc.addPage([595, 842]);
  first.drawText("Glossary", { x: TERM_X, y: 780, size: 18, font: bold });
  let y = 740;
  first.drawText("access control", { x: TERM_X, y, size: SIZE, font: bold });
  y = drawLines(first, regular, DEFINITION_X, y, [
    "The process of granting or denying specific requests to obtain",
    "and use information and related processing services.",
  ]);
  // A term over two lines with its definition beside the second.
  y -= 8;
  first.drawText("chief information", { x: TERM_X, y, size: SIZE, font: bold });
  first.drawText("security officer", { x: TERM_X, y: y - 12.5, size: SIZE, font: bold });
  y = drawLines(first, regular, DEFINITION_X, y - 12.5, ["See Senior Agency Information Security Officer."]);
  // A term run into its definition: the gap between them too narrow to part two cells.
  y -= 8;
  first.drawText("configuration management", { x: TERM_X, y, size: SIZE, font: bold });
  y = drawLines(first, regular, DEFINITION_X, y, [
    "A collection of activities focused on establishing and maintaining",
    "the integrity of products and systems through their life cycle.",
  ]);
  // A term defined by two sources: the second source's note starts its second definition.
  y -= 8;
  first.drawText("security architecture", { x: TERM_X, y, size: SIZE, font: bold });
  first.drawText("[SP 800-39]", { x: TERM_X, y: y - 12.5, size: SIZE - 1, font: regular });
  y = drawLines(first, regular, DEFINITION_X, y, [
    "An embedded, integral part of the enterprise architecture that",
    "describes the structure and behavior of its security processes.",
  ]);
  y -= 8;
  first.drawText("[SP 800-160 v1]", { x: TERM_X, y, size: SIZE - 1, font: regular });
  y = drawLines(first, regular, DEFINITION_X, y, [
    "A set of physical and logical representations of system architecture",
    "that conveys how the system is partitioned into security domains.",
  ]);
  // The page's last entry runs on over the page break.
  y -= 8;
  first.drawText("system owner", { x: TERM_X, y, size: SIZE, font: bold });
  drawLines(first, regular, DEFINITION_X, y, [
    "An official responsible for the procurement, development, integration,",
    "modification, operation, and maintenance of an information system",
  ]);
  const second = doc.addPage([595, 842]);
  y = drawLines(second, regular, DEFINITION_X, 780, RUN_ON) - 8;
  for (const [term, lines] of [
    [
      "threat",
      ["Any circumstance or event with the potential to adversely", "impact organizational operations or assets."],
    ],
    [
      "trust anchor",
      [
        "A public key and the name of a certification authority that",
        "is used to validate the first certificate in a path.",
      ],
    ],
    [
      "vulnerability",
      ["A weakness in a system, its security procedures or internal", "controls that a threat source could exploit."],
    ],
  ] as const) {
    second.drawText(term, { x: TERM_X, y, size: SIZE, font: bold });
    y = drawLines(second, regular, DEFINITION_X, y, [...lines]) - 8;
  }
  return doc.save();
}

async function markdownOf(bytes: Uint8Array, name: string): Promise<string> {
  const form = new FormData();
  form.append("files", new File([bytes.slice()], name, { type: "application/pdf" }));
  const res = await call(env.srv, "/v2/documents/extract", { method: "POST", key: env.key, body: form });
  expect(res.status).toBe(200);
  return res.body.documents[0].markdown;
}

test("a glossary's entries stay whole over a page break, over a two-line term, and under a second source", async () => {
  const markdown = `${await markdownOf(await longGlossaryPdf(), "long-glossary.pdf")}\n`;
  expect(markdown).toContain(
    "\naccess control — The process of granting or denying specific requests to obtain and use information and related processing services.\n",
  );
  expect(markdown).toContain(
    "\nchief information security officer — See Senior Agency Information Security Officer.\n",
  );
  expect(markdown).toContain(
    "\nconfiguration management — A collection of activities focused on establishing and maintaining the integrity of products and systems through their life cycle.\n",
  );
  expect(markdown).toContain(
    "\nsecurity architecture — An embedded, integral part of the enterprise architecture that describes the structure and behavior of its security processes. \\[SP 800-39\\]\n",
  );
  expect(markdown).toContain(
    "\nsecurity architecture — A set of physical and logical representations of system architecture that conveys how the system is partitioned into security domains. \\[SP 800-160 v1\\]\n",
  );
  // The definition run on over the page break ends its entry, and opens no paragraph of its own.
  expect(markdown).toContain(
    `\nsystem owner — An official responsible for the procurement, development, integration, modification, operation, and maintenance of an information system ${RUN_ON.join(" ")}\n`,
  );
  expect(markdown).not.toMatch(/(^|\n)and for the protection/);
  expect(markdown).toContain("\nthreat — Any circumstance or event");
  expect(markdown).not.toMatch(/(^|\n)(chief information|security officer|\\\[SP 800-160 v1\\\])\n/);
}, 120_000);

/** Entries shaped like a glossary's, drawn on a page of their own under a heading. */
async function entriesPdf(entries: [string, string[]][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
  const page = doc.addPage([595, 842]);
  page.drawText("3 Materials", { x: TERM_X, y: 780, size: 18, font: bold });
  let y = 740;
  for (const [term, lines] of entries) {
    page.drawText(term, { x: TERM_X, y, size: SIZE, font: bold });
    y = drawLines(page, regular, DEFINITION_X, y, lines) - 8;
  }
  return doc.save();
}

const PROSE = [
  "Each of these is described in the chapter that follows, with the",
  "reasons it was chosen and the tests it passed before it was used.",
];

test("the glossary's guards: terms in no alphabetical order, or numbers alone, are not a glossary", async () => {
  // A glossary's own order: notes set beside a text in no order stay text.
  const unordered = await markdownOf(
    await entriesPdf([
      ["zinc plating", PROSE],
      ["copper wire", PROSE],
      ["tin solder", PROSE],
      ["alloy steel", PROSE],
    ]),
    "unordered.pdf",
  );
  expect(unordered).not.toContain(" — ");
  expect(unordered).toContain("zinc plating");
  // A row's number is a table's, not a term: numbered rows with prose beside them stay text.
  const numbered = await markdownOf(
    await entriesPdf([
      ["24", PROSE],
      ["25", PROSE],
      ["26", PROSE],
      ["27", PROSE],
    ]),
    "numbered.pdf",
  );
  expect(numbered).not.toContain(" — ");
  // The same page with words for terms, in order, is a glossary: the guards above are what held.
  const ordered = await markdownOf(
    await entriesPdf([
      ["alloy steel", PROSE],
      ["copper wire", PROSE],
      ["tin solder", PROSE],
      ["zinc plating", PROSE],
    ]),
    "ordered.pdf",
  );
  expect(ordered).toContain(`\nalloy steel — ${PROSE.join(" ")}`);
}, 120_000);
