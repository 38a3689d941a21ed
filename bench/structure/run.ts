/**
 * Document structure on 68 real documents (and 9 outline-less copies) nobody tuned for (issue #28): headings, outlines, front
 * and back matter, and courses that follow the book.
 * Usage: sh bench/structure/fetch-debian.sh && bun bench/structure/strip-outline.ts   (once, into bench/.cache)
 *        bun bench/structure/run.ts [--half dev|test|all] [--only NAME,NAME] [--courses] [--courses-only] [--shard K/N] [--no-speed]
 *
 * Documents (documents.ts): the shared corpus's books/, pdf/, docx/ and html/, 36 PDFs of
 * Debian documentation packages and 9 DEV books copied without their outline (strip-outline.ts); each is in the DEV half (tune on it) or the TEST half (run it,
 * never read its failures to write a rule) by parseInt(sha1(name).slice(0, 8), 16) % 2, and every
 * table is printed per half with its totals. Truth is read from the documents by other routes
 * than ingest (truth-headings.ts, page-labels.ts): outlines by poppler, contents pages and
 * front/back pages transcribed by hand under truth/, DOCX heading styles, HTML <h1>-<h4>.
 *
 * Tables:
 *  1. Headings, per document: recall and precision of the extracted headings against the truth
 *     with the PDF outline withheld (headings from the text alone; for DOCX and HTML, their only
 *     reading), and recall with the outline used, against every heading-like outline entry
 *     (score-headings.ts says how headings match and which count for precision).
 *  2. Front/back page labels: pages whose extracted text is mostly non-teaching roles against the
 *     hand labels (PDFs), accuracy per document, and recall per class over the half.
 *  3. Speed and memory on the largest book: pages per CPU second of our extraction (this process)
 *     against pdftotext's, and the peak RSS of a fresh process extracting it six times back to back
 *     through the extraction pool (bench/ingest/peak-rss.ts). Skipped with --no-speed.
 *  4. With --courses (slow): a course from each book-length PDF (courses.ts): chapters, quiz and
 *     exam items, flashcards, study-guide and podcast lines from hand-labelled front/back pages,
 *     and the words the chapters' planned sections read from them; sentences in two chapters,
 *     chapter boundaries on the book's parts and chapters (and splits inside a part or chapter
 *     over twice the average, counted apart); wall and CPU
 *     seconds per book (the CPU of the server and its extraction processes and of this process,
 *     per phase in the log: wall time mostly says how loaded the machine was).
 *     --courses-only builds the courses without tables 1 and 2 (extracting every document twice
 *     takes longer than the courses on a loaded machine); --shard K/N builds every Nth book from
 *     the Kth (1-based), so that several processes share a half; it shares tables 1 and 2 the same
 *     way (every Nth document), each document's counts logged as it finishes.
 * Goals are printed beside the figures.
 */

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildCourses, type CourseFigures, type CourseInput } from "./courses.ts";
import { ALL_DOCUMENTS, type BenchDocument, type Half, isBook, selectDocuments } from "./documents.ts";
import { extractDocument } from "./extract.ts";
import { emptyLabelScore, type LabelScore, pageLabels, scoreLabels } from "./page-labels.ts";
import { addScores, EMPTY_SCORE, type HeadingScore, scoreHeadings } from "./score-headings.ts";
import { headingTruth } from "./truth-headings.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    half: { type: "string", default: "all" },
    only: { type: "string" },
    courses: { type: "boolean", default: false },
    "courses-only": { type: "boolean", default: false },
    shard: { type: "string", default: "1/1" },
    "no-speed": { type: "boolean", default: false },
  },
});
const HALVES: Half[] = values.half === "all" ? ["dev", "test"] : [values.half as Half];
const GOALS = {
  recall: 0.9,
  precision: 0.85,
  outlineRecall: 0.97,
  labels: 0.95,
  speed: 0.5,
  rssMb: 500,
};

const ratio = (n: number, d: number) => (d === 0 ? "-" : (n / d).toFixed(3));
const log = (line: string) => console.error(line);

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => (c ?? "").padEnd(widths[i]!)).join("  ");
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

interface DocumentFigures {
  doc: BenchDocument;
  truthFrom: string;
  truthCount: number;
  dropped: number;
  withheld: HeadingScore | null;
  used: HeadingScore | null;
  labels: LabelScore | null;
}

async function measure(doc: BenchDocument): Promise<DocumentFigures> {
  const truth = await headingTruth(doc);
  const labels = doc.kind === "pdf" ? await pageLabels(doc.truthOf?.name ?? doc.name) : null;
  const used = await extractDocument(doc);
  const hasOutline = truth?.from === "outline";
  const withheldBlocks = hasOutline ? (await extractDocument(doc, false)).blocks : used.blocks;
  return {
    doc,
    truthFrom: truth?.from ?? "none",
    truthCount: truth?.headings.length ?? 0,
    dropped: truth?.dropped ?? 0,
    withheld: truth ? scoreHeadings(withheldBlocks, truth.headings) : null,
    used: hasOutline ? scoreHeadings(used.blocks, truth.outline) : null,
    labels: labels ? scoreLabels(used.blocks, labels, doc.pages ?? 0, emptyLabelScore()) : null,
  };
}

function headingTable(half: Half, figures: DocumentFigures[]): void {
  console.log(
    `\n== ${half.toUpperCase()}: headings (truth: outline by poppler, contents page by hand, DOCX styles, HTML tags)`,
  );
  const rows: string[][] = [];
  let withheld = EMPTY_SCORE;
  let used = EMPTY_SCORE;
  for (const f of figures) {
    if (!f.withheld) continue;
    withheld = addScores(withheld, f.withheld);
    if (f.used) used = addScores(used, f.used);
    rows.push([
      f.doc.name,
      f.doc.pages ? String(f.doc.pages) : f.doc.kind,
      `${f.truthFrom} ${f.truthCount}${f.dropped ? ` (-${f.dropped})` : ""}`,
      ratio(f.withheld.found, f.withheld.truth),
      `${ratio(f.withheld.correct, f.withheld.counted)} of ${f.withheld.counted} (+${f.withheld.deeper} deeper)`,
      f.used ? `${ratio(f.used.found, f.used.truth)} of ${f.used.truth}` : "-",
    ]);
  }
  rows.push([
    "TOTAL",
    "",
    String(withheld.truth),
    ratio(withheld.found, withheld.truth),
    `${ratio(withheld.correct, withheld.counted)} of ${withheld.counted} (+${withheld.deeper} deeper)`,
    `${ratio(used.found, used.truth)} of ${used.truth}`,
  ]);
  table(["document", "pages", "truth (dropped)", "recall withheld", "precision withheld", "recall outline used"], rows);
  console.log(
    `goals: recall withheld ≥ ${GOALS.recall}, precision withheld ≥ ${GOALS.precision}, recall with outline ≥ ${GOALS.outlineRecall}`,
  );
  const none = figures.filter((f) => !f.withheld).map((f) => f.doc.name);
  if (none.length > 0) console.log(`no heading truth (page labels only): ${none.join(", ")}`);
}

function labelTable(half: Half, figures: DocumentFigures[]): void {
  console.log(
    `\n== ${half.toUpperCase()}: front/back page labels (hand labels; a page is front/back when most of its text has a non-teaching role)`,
  );
  const total = emptyLabelScore();
  const rows: string[][] = [];
  for (const f of figures) {
    if (!f.labels) continue;
    total.scored += f.labels.scored;
    total.agree += f.labels.agree;
    for (const [cls, c] of f.labels.classes) {
      const t = total.classes.get(cls) ?? { pages: 0, right: 0 };
      total.classes.set(cls, { pages: t.pages + c.pages, right: t.right + c.right });
    }
    const wrong = [...f.labels.classes]
      .filter(([, c]) => c.right < c.pages)
      .map(([k, c]) => `${k} ${c.right}/${c.pages}`);
    rows.push([f.doc.name, String(f.labels.scored), ratio(f.labels.agree, f.labels.scored), wrong.join(", ")]);
  }
  rows.push(["TOTAL", String(total.scored), ratio(total.agree, total.scored), ""]);
  table(["document", "pages scored", "accuracy", "classes missed (right/pages)"], rows);
  const classes = [...total.classes].sort(([a], [b]) => a.localeCompare(b));
  console.log(
    `recall per class: ${classes.map(([k, c]) => `${k} ${ratio(c.right, c.pages)} (${c.pages})`).join(", ")}`,
  );
  console.log(`goal: accuracy ≥ ${GOALS.labels}`);
}

function cpuSeconds(before: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(before);
  return (d.user + d.system) / 1e6;
}

async function speedTable(): Promise<void> {
  const book = [...ALL_DOCUMENTS].filter((d) => d.kind === "pdf").sort((a, b) => (b.pages ?? 0) - (a.pages ?? 0))[0]!;
  const pages = book.pages ?? 0;
  const before = process.cpuUsage();
  await extractDocument(book);
  const ours = cpuSeconds(before);
  const poppler = Bun.spawnSync(["pdftotext", "-q", book.path, "/dev/null"]).resourceUsage.cpuTime;
  const popplerSeconds = Number(poppler.total) / 1e6;
  const rss = Bun.spawnSync(
    [process.execPath, resolve(import.meta.dir, "../ingest/peak-rss.ts"), book.path, "6", "1"],
    { stdout: "pipe", stderr: "pipe" },
  );
  const peak = rss.exitCode === 0 ? JSON.parse(rss.stdout.toString()).peakRssMb : Number.NaN;
  console.log(
    `\n== speed and memory on the largest book, ${book.name} (${pages} pages; CPU time, so load does not count)`,
  );
  table(
    ["extractor", "CPU s", "pages/CPU s", "ratio", "peak RSS, 6 back to back"],
    [
      ["ours", ours.toFixed(1), (pages / ours).toFixed(0), (popplerSeconds / ours).toFixed(2), `${peak.toFixed(0)} MB`],
      ["pdftotext", popplerSeconds.toFixed(1), (pages / popplerSeconds).toFixed(0), "1", ""],
    ],
  );
  console.log(`goals: ratio ≥ ${GOALS.speed}, peak RSS < ${GOALS.rssMb} MB`);
}

const cpuTotal = (f: CourseFigures) => f.cpu.build + f.cpu.materials + f.cpu.podcasts + f.cpu.scoring;

function courseTable(half: Half, figures: CourseFigures[]): void {
  console.log(
    `\n== ${half.toUpperCase()}: courses from book-length PDFs, built-in engine (front/back items of all items)`,
  );
  const kinds = ["chapters", "planned", "quiz", "exam", "cards", "guide", "podcast"] as const;
  const total = Object.fromEntries(kinds.map((k) => [k, [0, 0]])) as Record<(typeof kinds)[number], number[]>;
  let shared = 0;
  let onBooks = 0;
  const rows = figures.map((f) => {
    if (f.error) return [f.name, f.error];
    for (const k of kinds) {
      total[k]![0]! += f.frontBack[k][0];
      total[k]![1]! += f.frontBack[k][1];
    }
    shared += f.shared;
    if (f.boundaries[0] === f.boundaries[1]) onBooks++;
    return [
      f.name,
      String(f.chapters),
      ...kinds.map((k) => `${f.frontBack[k][0]}/${f.frontBack[k][1]}`),
      String(f.shared),
      `${f.boundaries[0]}/${f.boundaries[1]}${f.split ? ` (+${f.split} split)` : ""}`,
      f.spans.longest.toFixed(2),
      `${f.spans.appendix}/${f.spans.body}`,
      f.seconds.toFixed(0),
      cpuTotal(f).toFixed(0),
    ];
  });
  const built = figures.filter((f) => !f.error);
  rows.push([
    "TOTAL",
    "",
    ...kinds.map((k) => `${total[k]![0]}/${total[k]![1]}`),
    String(shared),
    `${onBooks}/${built.length} books`,
    `${built.filter((f) => f.spans.longest <= 2).length}/${built.length} ≤ 2`,
    `${built.reduce((a, f) => a + f.spans.appendix, 0)}/${built.reduce((a, f) => a + f.spans.body, 0)}`,
    "",
    built.reduce((a, f) => a + cpuTotal(f), 0).toFixed(0),
  ]);
  table(
    [
      "document",
      "chapters",
      ...kinds.map((k) => `f/b ${k}`),
      "shared",
      "on chapters",
      "longest/avg",
      "appendix/body",
      "s",
      "cpu s",
    ],
    rows,
  );
  console.log(
    "goals: 0 front/back items of every kind, 0 shared sentences, every boundary on a part or chapter in every book, no chapter over twice the average (words of the book it spans)",
  );
}

const missing = ALL_DOCUMENTS.filter((d) => !existsSync(d.path)).map((d) => d.name);
if (missing.length > 0)
  throw new Error(
    `missing ${missing.join(", ")}: run sh bench/structure/fetch-debian.sh and bun bench/structure/strip-outline.ts first`,
  );

const [shardK, shardN] = values.shard.split("/").map(Number) as [number, number];
const inShard = (_: unknown, i: number) => i % shardN === shardK - 1;

for (const half of HALVES) {
  const docs = selectDocuments(half, values.only);
  if (!values["courses-only"]) {
    const figures: DocumentFigures[] = [];
    for (const doc of docs.filter(inShard)) {
      const t0 = performance.now();
      const f = await measure(doc);
      figures.push(f);
      // Each document's counts as it finishes: shards' totals add up from these.
      const counts = { withheld: f.withheld, used: f.used, labels: f.labels && [f.labels.agree, f.labels.scored] };
      log(`${half} ${doc.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s ${JSON.stringify(counts)}`);
    }
    headingTable(half, figures);
    labelTable(half, figures);
  }
  if (values.courses || values["courses-only"]) {
    const inputs: CourseInput[] = [];
    for (const doc of docs.filter(isBook).filter(inShard)) {
      const labels = await pageLabels(doc.truthOf?.name ?? doc.name);
      const truth = await headingTruth(doc);
      if (labels) inputs.push({ doc, labels, truth: truth ? [...truth.outline, ...truth.headings] : [] });
    }
    courseTable(half, await buildCourses(inputs, log));
  }
}
if (!values["no-speed"]) await speedTable();
