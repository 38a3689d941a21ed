/**
 * The item-checks report: every quiz question, exam item, flashcard and study-guide line of a course
 * read as a teacher would (item-checks.ts), with the built-in engine.
 * Usage: bun bench/quality/items.ts [--half dev|test|all] [--only NAME] [--shard K/N] [--rows DIR]
 *        bun bench/quality/items.ts --table DIR
 * (--shard runs every N-th course from the K-th, 1-based, so N processes share the run; the halves'
 * courses alternate, each half's shortest first, so a run cut short has courses of both. Each
 * course's row is written to --rows DIR as it is measured; --table prints the tables of the rows
 * there, all shards together.)
 *
 * Courses, through a real server: one from each book-length document of the structure benchmark
 * (bench/structure/documents.ts: its books and the outline-less DEV copies, read with their
 * original's page labels; the engine choosing the number of chapters) and one of 4 chapters from
 * each other corpus document of bench/quality (documents.ts); each with an exam of 30 (or as many as
 * the course can supply), its flashcards and its study guide. Halves are the fixed ones (the file's
 * base name's sha1); the test half is run, never read to write a rule. Per course:
 *   - fragments: prompts and rubric points that are not whole questions or statements, and choices
 *     not of their answer's form (a clause beside a noun phrase, "The ASCII" beside a term); goal 0
 *   - trivia: blanks on a figure or a name in a sentence not about it; goal 0
 *   - front/back: items holding a sentence from a front/back page (hand labels for the books, the
 *     file itself for the corpus, as bench/structure and bench/quality read them), and whether the
 *     study guide's first section is one; goal 0
 *   - kinds: the fewest question kinds in one chapter quiz (and the mean); goal ≥ 3; and the quizzes
 *     under three kinds, with how many of them say so in their note (a chapter too thin for three)
 *   - blanks: the share of fill-in-the-blank questions over the quizzes, and the most in one; goal ≤ 40%
 *   - exam blanks: their share of the exam (a teacher would not set an exam of mostly blanks either)
 *   - defines: flashcards whose back says what the front is or does; goal ≥ 90%
 *   - faults a-n: the reader's fault classes, each counted by its check in item-checks.ts
 * Every item is written to a markdown file per course for reading (dev half only when reading for rules).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sbd from "sbd";
import { stopExtractionWorkers } from "../../src/ingest/index.ts";
import { call, startServer, type TestServer, tempDir } from "../../test/helpers/server.ts";
import { bodyUnits, fromFrontBack as fromLabelledPages, frontBackUnits, strings } from "../structure/courses.ts";
import { type BenchDocument, type Half, halfOf, isBook, selectDocuments } from "../structure/documents.ts";
import { pageLabels } from "../structure/page-labels.ts";
import { CORPUS, documents } from "./documents.ts";
import { fromFrontBack, frontBackOf } from "./front-back.ts";
import {
  agreement,
  choiceFault,
  contextCard,
  contextDefinition,
  cutDefinition,
  definesCard,
  fragmentChoice,
  fragmentPrompt,
  fragmentStatement,
  guideFaults,
  type Item,
  instruction,
  kindOf,
  type Mcq,
  noReason,
  notProcedure,
  padded,
  readsInput,
  runDependentCode,
  taughtSentences,
  triviaBlank,
  unlikeSwap,
  vagueRole,
  wordClassMismatch,
} from "./item-checks.ts";

/**
 * A study guide's key term as a card: an abbreviation given with its expansion is asked for what it
 * stands for, as its card is; a name in capitals given with a sentence about it ("LCONS is a variant
 * that …") is asked what it is.
 */
const asCard = (k: { term: string; definition: string }) => ({
  front:
    /^\p{Lu}[\p{Lu}\d]+s?$/u.test(k.term) && !k.definition.includes(k.term) ? `What does ${k.term} stand for?` : k.term,
  back: k.definition,
});

/** The reader's fault classes a-n (item-checks.ts), counted per course. */
const FAULTS = [
  "cut",
  "noReason",
  "readsInput",
  "context",
  "instruction",
  "wordClass",
  "agreement",
  "padded",
  "choices",
  "vague",
  "guide",
  "runDependent",
  "notSteps",
  "unlikeSwap",
] as const;
type Fault = (typeof FAULTS)[number];

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    half: { type: "string", default: "all" },
    only: { type: "string" },
    shard: { type: "string" },
    rows: { type: "string" },
    table: { type: "string" },
  },
});
const halves: Half[] = values.half === "all" ? ["dev", "test"] : [values.half as Half];
const [shard, shards] = (values.shard ?? "1/1").split("/").map(Number) as [number, number];

interface Course {
  doc: BenchDocument;
  chapters?: string;
  /**
   * Reads the document's front and back matter (pdftotext of every page: seconds a book on a loaded
   * machine), then tells whether a sentence was taught from it; made only for the courses measured.
   */
  frontBack: () => Promise<(sentence: string) => boolean>;
}

const sentences = (text: string) =>
  sbd
    .sentences(text, { newline_boundaries: true })
    .map((s) => s.trim())
    .filter((s) => s.split(/\s+/).length >= 6);

/** Front/back matter as the file itself shows it (bench/quality's reading), for documents without hand labels. */
const ofFile = (path: string) => async () => {
  const region = await frontBackOf(path);
  return (s: string) => fromFrontBack(s, region);
};

function coursesOf(half: Half): Course[] {
  const out: Course[] = selectDocuments(half, values.only)
    .filter(isBook)
    .map((doc) => ({
      doc,
      frontBack: async () => {
        // An outline-less copy has its original's pages, so its original's hand labels.
        const labels = await pageLabels(doc.truthOf?.name ?? doc.name);
        if (!labels) return ofFile(doc.path)();
        const units = frontBackUnits(doc.path, labels);
        // As the structure benchmark reads them: a sentence the body pages print too (a heading the contents page lists) is taught from the body.
        const body = bodyUnits(doc.path, labels);
        return (s: string) => fromLabelledPages(s, units) && !fromLabelledPages(s, body);
      },
    }));
  for (const rel of documents(values.only)) {
    const parts = rel.split("/");
    const name = parts.at(-1) === "source.html" ? parts.at(-2)! : parts.at(-1)!;
    if (halfOf(name) !== half || out.some((c) => c.doc.name === name)) continue;
    const path = join(CORPUS, rel);
    out.push({
      doc: { name, path, source: "corpus", kind: "pdf", pages: null, half },
      chapters: "4",
      frontBack: ofFile(path),
    });
  }
  // Shortest first (a corpus document, then books by pages), so a run cut short has measured the most courses.
  return out.sort((a, b) => (a.doc.pages ?? 0) - (b.doc.pages ?? 0));
}

/** The halves' courses taken in turn, so every shard's run holds courses of each half. */
function allCourses(): Course[] {
  const lists = halves.map(coursesOf);
  const out: Course[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (l[i]) out.push(l[i]!);
  return out;
}

interface Row {
  name: string;
  half: Half;
  error?: string;
  items: number;
  fragments: number;
  trivia: number;
  frontBack: number;
  guideOpensFrontBack: boolean;
  kinds: number[];
  /** Quizzes under three kinds, and how many of them say so. */
  fewKinds: [told: number, all: number];
  blanks: [number, number];
  mostBlanks: number;
  examBlanks: [number, number];
  defines: [number, number];
  faults: Record<Fault, number>;
}

/** A course's row before anything is counted, or when it could not be built. */
const emptyRow = (name: string, half: Half, error?: string): Row => ({
  name,
  half,
  ...(error ? { error } : {}),
  items: 0,
  fragments: 0,
  trivia: 0,
  frontBack: 0,
  guideOpensFrontBack: false,
  kinds: [],
  fewKinds: [0, 0],
  blanks: [0, 0],
  mostBlanks: 0,
  examBlanks: [0, 0],
  defines: [0, 0],
  faults: Object.fromEntries(FAULTS.map((f) => [f, 0])) as Record<Fault, number>,
});

const outDir = mkdtempSync(join(tmpdir(), "cf-items-"));

async function measure(srv: TestServer, key: string, c: Course): Promise<Row> {
  const form = new FormData();
  form.append("files", new Blob([await Bun.file(c.doc.path).arrayBuffer()]), c.doc.path.split("/").pop()!);
  if (c.chapters) form.append("num_chapters", c.chapters);
  const empty = emptyRow(c.doc.name, c.doc.half);
  // Asynchronous, then polled: a book's course on a loaded machine outlasts a synchronous request's 5-minute fetch.
  const made = await call(srv.url, "/v2/courses/generate-from-files", { key, user: "reader", body: form });
  if (made.status !== 202) return { ...empty, error: `HTTP ${made.status}` };
  const id = (made.body.course_id ?? made.body.course?.id) as string;
  for (;;) {
    const p = await call(srv.url, `/v2/courses/${id}/progress`, { key, user: "reader" });
    if (p.body.course_status === "failed") return { ...empty, error: "course failed" };
    if (p.body.course_status !== "generating") break;
    await Bun.sleep(2000);
  }
  const course = await call(srv.url, `/v2/courses/${id}`, { key, user: "reader" });
  const shown = course.body.chapters as {
    content: string;
    sources?: { text: string }[];
    quiz: { questions: Mcq[]; note?: string };
  }[];
  // What the items were drawn from: the chapters and the passages they were written from.
  const courseText = shown.flatMap((ch) => [ch.content, ...(ch.sources ?? []).map((s) => s.text)]).join("\n");
  const quizzes = shown.map((ch) => ch.quiz.questions);
  let exam = await call(srv.url, `/v2/courses/${id}/generate-exam`, { key, user: "reader", json: { exam_size: 30 } });
  const available = exam.body.error?.details?.available;
  if (exam.status === 422 && available >= 1)
    exam = await call(srv.url, `/v2/courses/${id}/generate-exam`, {
      key,
      user: "reader",
      json: { exam_size: available },
    });
  const examItems: Item[] = exam.status === 200 ? exam.body.exam.questions : [];
  const deck = await call(srv.url, `/v2/courses/${id}/generate-flashcards`, { key, user: "reader", json: {} });
  const cards: { front: string; back: string }[] = deck.status === 200 ? deck.body.flashcards.cards : [];
  const guide = (await call(srv.url, `/v2/courses/${id}/study-guide`, { key, user: "reader" })).body.study_guide;
  const sections: unknown[] = guide?.sections ?? [];

  const items: Item[] = [...quizzes.flat(), ...examItems];
  const fragments = [
    ...items.map((q) => fragmentPrompt(q.prompt) && `prompt (${fragmentPrompt(q.prompt)}): ${q.prompt}`),
    ...items.flatMap((q) =>
      q.type === "short_answer"
        ? q.rubric.map((r) => fragmentStatement(r) && `rubric (${fragmentStatement(r)}): ${r}`)
        : [],
    ),
    ...items.map(
      (q) => q.type === "mcq" && fragmentChoice(q) && `choice (no answer's form): ${fragmentChoice(q)} | ${q.prompt}`,
    ),
  ].filter((x): x is string => typeof x === "string" && x.length > 0);
  const mcqs = items.filter((q): q is Mcq => q.type === "mcq");
  const trivia = mcqs.filter(triviaBlank);
  const fromFrontBackPage = await c.frontBack();
  const taught = (v: unknown) => strings(v).some((t) => sentences(t).some(fromFrontBackPage));
  // A guide heading naming a course chapter ("Chapter 2: CHAPTER THREE THE PROCESS") is its title, made
  // of the book's own headings, which the contents page lists too: a title, not a taught sentence.
  const guideLines = sections.flatMap((s) => strings(s)).filter((t) => !/^Chapter \d+: /.test(t));
  const frontBackItems = [...items, ...cards].filter(taught).length + guideLines.filter(taught).length;
  const quizKinds = quizzes.filter((q) => q.length > 0).map((q) => new Set(q.map(kindOf)).size);
  const few = shown.filter((ch) => ch.quiz.questions.length > 0 && new Set(ch.quiz.questions.map(kindOf)).size < 3);
  const toldFew = few.filter((ch) => /kinds? of question/.test(ch.quiz.note ?? "")).length;
  const quizMcqs = quizzes.flat();
  const blanks = quizMcqs.filter((q) => kindOf(q) === "blank").length;
  const mostBlanks = Math.max(
    0,
    ...quizzes.filter((q) => q.length > 0).map((q) => q.filter((x) => kindOf(x) === "blank").length / q.length),
  );

  const keyTerms = sections.flatMap((s) =>
    s && typeof s === "object" && "items" in s ? (s.items as { term: string; definition: string }[]) : [],
  );
  const guideSentences = sections.flatMap((s) =>
    s && typeof s === "object" && "bullets" in s ? (s.bullets as string[]) : [],
  );
  const definitionItems = mcqs.filter((q) => kindOf(q) === "term → definition");
  const failing: Record<Fault, string[]> = {
    cut: [
      ...definitionItems.map((q) => q.choices[q.answer]!),
      ...cards.map((k) => k.back),
      ...keyTerms.map((k) => k.definition),
    ].filter(cutDefinition),
    noReason: mcqs.filter(noReason).map((q) => q.prompt),
    readsInput: mcqs.filter(readsInput).map((q) => q.prompt),
    context: [
      ...definitionItems.filter(contextDefinition).map((q) => q.prompt),
      ...cards.filter(contextCard).map((k) => k.front),
      ...keyTerms.filter((k) => contextCard(asCard(k))).map((k) => k.term),
    ],
    instruction: [
      ...items.filter((q) => taughtSentences(q).some(instruction)).map((q) => q.prompt),
      ...cards.filter((k) => instruction(k.back)).map((k) => k.back),
      ...[...keyTerms.map((k) => k.definition), ...guideSentences].filter(instruction),
    ],
    wordClass: mcqs.filter(wordClassMismatch).map((q) => `${q.prompt} [${q.choices.join(" | ")}]`),
    agreement: [...items.map((q) => q.prompt), ...cards.map((k) => k.front)].filter(agreement),
    padded: padded(examItems) > 0 ? [`${padded(examItems)} of ${examItems.length} exam items`] : [],
    choices: mcqs.flatMap((q) => choiceFault(q) ?? []).map((f, i) => `${f} (${i + 1})`),
    vague: mcqs.flatMap((q) => (vagueRole(q) ? [`${vagueRole(q)}: ${q.prompt}`] : [])),
    guide: guideFaults(sections as { heading: string; bullets?: string[] }[]),
    runDependent: mcqs.filter(runDependentCode).map((q) => q.prompt),
    notSteps: items.filter(notProcedure).map((q) => q.prompt),
    unlikeSwap: mcqs.flatMap((q) => {
      const swap = unlikeSwap(q, courseText);
      return swap ? [`${q.prompt} [${swap}]`] : [];
    }),
  };
  await Bun.write(
    join(outDir, `${c.doc.half}-${c.doc.name}.json`),
    JSON.stringify({ quizzes, exam: examItems, cards, sections }),
  );

  const lines = [
    `# ${c.doc.name}`,
    "",
    "## Failing",
    ...fragments.map((f) => `- fragment ${f}`),
    ...trivia.map((q) => `- trivia: ${q.prompt} [${q.choices.join(" | ")}]`),
    ...cards.filter((k) => !definesCard(k)).map((k) => `- card: **${k.front}** — ${k.back}`),
    ...FAULTS.flatMap((f) => failing[f].map((x) => `- ${f}: ${x}`)),
    "",
    "## Quizzes",
    ...quizzes.flatMap((q, i) => [`### Chapter ${i + 1}`, ...q.map(show)]),
    "",
    `## Exam (${examItems.length})`,
    ...examItems.map(show),
    "",
    "## Flashcards",
    ...cards.map((k) => `- **${k.front}** — ${k.back}`),
    "",
    "## Study guide",
    "```json",
    JSON.stringify(sections, null, 1),
    "```",
  ];
  await Bun.write(join(outDir, `${c.doc.half}-${c.doc.name}.md`), lines.join("\n"));
  return {
    name: c.doc.name,
    half: c.doc.half,
    items: items.length + cards.length + guideLines.length,
    fragments: fragments.length,
    trivia: trivia.length,
    frontBack: frontBackItems,
    guideOpensFrontBack: taught(sections[0]),
    kinds: quizKinds,
    fewKinds: [toldFew, few.length],
    blanks: [blanks, quizMcqs.length],
    mostBlanks,
    examBlanks: [examItems.filter((q) => q.type === "mcq" && kindOf(q) === "blank").length, examItems.length],
    defines: [cards.filter(definesCard).length, cards.length],
    faults: Object.fromEntries(
      FAULTS.map((f) => [f, f === "padded" ? padded(examItems) : failing[f].length]),
    ) as Record<Fault, number>,
  };
}

function show(q: Item): string {
  if (q.type === "mcq")
    return `- [${kindOf(q)}] ${q.prompt}\n${q.choices.map((c, i) => `  ${i === q.answer ? "*" : "-"} ${c}`).join("\n")}`;
  if (q.type === "short_answer") return `- [short] ${q.prompt}\n${q.rubric.map((r) => `  + ${r}`).join("\n")}`;
  return `- [worked] ${q.prompt}\n${q.steps.map((s) => `  1. ${s}`).join("\n")}`;
}

/** Measures this shard's courses, each row written to --rows as soon as it is known. */
async function run(): Promise<Row[]> {
  const rowsDir = values.rows ?? join(outDir, "rows");
  mkdirSync(rowsDir, { recursive: true });
  const srv = await startServer({
    dataDir: tempDir("cf-items-"),
    env: { LLM_PROVIDER: "extractive", RATE_LIMIT_PER_MINUTE: "10000", INGEST_TIMEOUT_MS: "900000" },
  });
  const rows: Row[] = [];
  try {
    const key = await srv.createKey("items", "production");
    for (const c of allCourses().filter((_, i) => i % shards === shard - 1)) {
      const t0 = performance.now();
      const row = await measure(srv, key, c).catch((err: unknown) =>
        emptyRow(c.doc.name, c.doc.half, String(err).slice(0, 60)),
      );
      rows.push(row);
      await Bun.write(join(rowsDir, `${c.doc.half}-${c.doc.name}.json`), JSON.stringify(row));
      console.error(
        `${c.doc.half} ${c.doc.name}: ${((performance.now() - t0) / 1000).toFixed(0)} s ${JSON.stringify(row)}`,
      );
    }
  } finally {
    await srv.stop();
    stopExtractionWorkers();
  }
  return rows;
}

const measured = values.table
  ? readdirSync(values.table)
      .filter((f) => f.endsWith(".json"))
      .map((f) => JSON.parse(readFileSync(join(values.table!, f), "utf8")) as Row)
  : await run();
const report: Record<string, Row[]> = Object.fromEntries(halves.map((h) => [h, measured.filter((r) => r.half === h)]));

const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${Math.round((100 * n) / d)}%`);
const header = [
  "course",
  "items",
  "fragments",
  "trivia",
  "front/back",
  "guide opens",
  "kinds min/mean",
  "under 3 (told)",
  "blanks (most)",
  "exam blanks",
  "defines",
];
for (const half of halves) {
  const rows = report[half]!;
  const table = rows.map((r) =>
    r.error
      ? [r.name, r.error]
      : [
          r.name,
          String(r.items),
          String(r.fragments),
          String(r.trivia),
          String(r.frontBack),
          r.guideOpensFrontBack ? "front/back" : "body",
          r.kinds.length
            ? `${Math.min(...r.kinds)}/${(r.kinds.reduce((a, b) => a + b, 0) / r.kinds.length).toFixed(1)}`
            : "-",
          `${r.fewKinds[1]} of ${r.kinds.length} (${r.fewKinds[0]})`,
          `${pct(r.blanks[0], r.blanks[1])} (${Math.round(100 * r.mostBlanks)}%)`,
          pct(r.examBlanks[0], r.examBlanks[1]),
          `${pct(r.defines[0], r.defines[1])} of ${r.defines[1]}`,
        ],
  );
  const ok = rows.filter((r) => !r.error);
  const sum = (f: (r: Row) => number) => ok.reduce((a, r) => a + f(r), 0);
  const kinds = ok.flatMap((r) => r.kinds);
  table.push([
    "all",
    String(sum((r) => r.items)),
    String(sum((r) => r.fragments)),
    String(sum((r) => r.trivia)),
    String(sum((r) => r.frontBack)),
    `${ok.filter((r) => r.guideOpensFrontBack).length} front/back`,
    kinds.length ? `${Math.min(...kinds)}/${(kinds.reduce((a, b) => a + b, 0) / kinds.length).toFixed(1)}` : "-",
    `${sum((r) => r.fewKinds[1])} of ${kinds.length} (${sum((r) => r.fewKinds[0])})`,
    `${pct(
      sum((r) => r.blanks[0]),
      sum((r) => r.blanks[1]),
    )} (${Math.round(100 * Math.max(0, ...ok.map((r) => r.mostBlanks)))}%)`,
    pct(
      sum((r) => r.examBlanks[0]),
      sum((r) => r.examBlanks[1]),
    ),
    `${pct(
      sum((r) => r.defines[0]),
      sum((r) => r.defines[1]),
    )} of ${sum((r) => r.defines[1])}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((x, i) => (x ?? "").padEnd(widths[i]!)).join("  ");
  // Rows measured before a class had its check count it as not measured.
  const faultTotals = FAULTS.map((f) => `${f} ${sum((r) => r.faults[f] ?? 0)}`).join(", ");
  console.log(
    `\n== ${half.toUpperCase()}: item checks, built-in engine (quizzes, exam, flashcards, study guide), ${ok.length} courses measured, ${rows.length - ok.length} failed`,
  );
  console.log(line(header));
  for (const r of table) console.log(line(r));
  console.log(`reader's fault classes (a-n): ${faultTotals}`);
}
console.log(
  "goals: fragments 0, trivia 0, front/back 0, kinds min ≥ 3 (a quiz under three says so), blanks ≤ 40% in every quiz, defines ≥ 90%",
);
console.log(`items: ${outDir}`);
