/**
 * A report of a few numbered chapters and a long tail of lettered appendices is planned body
 * first (#28): the body's chapters get the course's chapters, its long chapter split at its
 * numbered sections ("3.1–3.2: …"), and the appendices share as few chapters as the length rule
 * allows, after the body. Built as a PDF with an outline (which, like a NIST report's, also
 * bookmarks labelled paragraphs inside the long chapter) and without one; and the DEV report
 * nist-sp800-37r2 (three chapters, appendices A-H).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { documentParagraphs } from "../../src/courses/sections.ts";
import { stopExtractionWorkers } from "../../src/ingest/index.ts";
import { ROOT } from "../helpers/server.ts";
import { type LineSpec, linesPdf, type OutlineSpec } from "../ingest/heading-fixtures.ts";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "./helpers.ts";

interface Unit {
  heading: string;
  /** The word every sentence of the unit names, so a course chapter's text tells which units it reads. */
  subject: string;
  lines: number;
  level: 1 | 2;
  /** Labelled paragraphs the outline bookmarks inside the unit. */
  labels?: string[];
}

const BODY: Unit[] = [
  { heading: "1 Introduction", subject: "Anchoring", lines: 46, level: 1 },
  { heading: "2 Fundamentals", subject: "Ballast", lines: 46, level: 1 },
  { heading: "3 The Process", subject: "Rigging", lines: 6, level: 1 },
  { heading: "3.1 Caulking", subject: "Caulking", lines: 70, level: 2, labels: ["Expected Outputs: Sealed seams."] },
  {
    heading: "3.2 Dredging",
    subject: "Dredging",
    lines: 70,
    level: 2,
    labels: ["Primary Responsibility: Harbour Master."],
  },
  { heading: "3.3 Embanking", subject: "Embanking", lines: 70, level: 2, labels: ["Expected Outputs: Raised banks."] },
  {
    heading: "3.4 Fendering",
    subject: "Fendering",
    lines: 70,
    level: 2,
    labels: ["Primary Responsibility: Dock Crew."],
  },
];
const APPENDICES: Unit[] = ["Gantry", "Hawser", "Isobar", "Jetty", "Kedge", "Lanyard"].map((subject, i) => ({
  heading: `Appendix ${String.fromCharCode(65 + i)} ${subject} Tables`,
  subject,
  lines: 38,
  level: 1,
}));

// Varied sentences (a seeded generator), so the report never repeats eight words in a row by accident.
function sentence(subject: string, seed: number): string {
  let x = seed * 7919 + 17;
  const pick = <T>(xs: T[]) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return xs[x % xs.length]!;
  };
  const verbs = ["checks", "logs", "repairs", "measures", "tightens", "inspects", "records", "clears"];
  const things = ["seams", "cables", "moorings", "hulls", "winches", "buoys", "decks", "chains"];
  const places = ["north quay", "dry dock", "outer mole", "fuel pier", "slipway", "boat yard"];
  return `${subject} crew ${pick(verbs)} the ${pick(things)} at the ${pick(places)}, entry ${seed}.`;
}

/** Lines of the report flowed onto pages, with the page each heading and label stands on. */
function layout(units: Unit[]): { pages: { lines: LineSpec[] }[]; at: Map<string, number> } {
  const pages: { lines: LineSpec[] }[] = [{ lines: [{ text: "Harbour Works Report", size: 26, bold: true }] }];
  const at = new Map<string, number>();
  const slots = (l: LineSpec) => ((l.size ?? 11) + (l.gap ?? 0)) / 11;
  const put = (line: LineSpec) => {
    const page = pages.at(-1)!;
    if (page.lines.reduce((n, l) => n + slots(l), 0) + slots(line) > 48) pages.push({ lines: [] });
    pages.at(-1)!.lines.push(line);
    return pages.length;
  };
  let seed = 0;
  for (const u of units) {
    if (u.level === 1) pages.push({ lines: [] });
    at.set(u.heading, put({ text: u.heading, size: u.level === 1 ? 22 : 15, bold: true, gap: 8 }));
    for (let i = 0; i < u.lines; i++) {
      const label = u.labels?.[0];
      if (label && i === Math.floor(u.lines / 2)) at.set(label, put({ text: label }));
      put({ text: sentence(u.subject, seed++) });
    }
  }
  return { pages, at };
}

async function report(withOutline: boolean): Promise<Uint8Array> {
  const units = [...BODY, ...APPENDICES];
  const { pages, at } = layout(units);
  if (!withOutline) return linesPdf(pages);
  const entry = (title: string): OutlineSpec => ({ title, page: at.get(title)! });
  const outline: OutlineSpec[] = units
    .filter((u) => u.level === 1)
    .map((u) => ({
      ...entry(u.heading),
      children: u.heading.startsWith("3 ")
        ? BODY.filter((s) => s.level === 2).flatMap((s) => [entry(s.heading), ...(s.labels ?? []).map(entry)])
        : [],
    }));
  return linesPdf(pages, outline);
}

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(async () => {
  await env.stop();
  stopExtractionWorkers();
});

const SUBJECTS = [...BODY, ...APPENDICES].map((u) => u.subject);
/** For each course chapter, the units (indexes into SUBJECTS) its text reads. */
const unitsIn = (course: any): number[][] =>
  course.chapters.map((ch: { content: string }) =>
    SUBJECTS.flatMap((s, i) => (new RegExp(`\\b${s}\\b`).test(ch.content) ? [i] : [])),
  );

for (const withOutline of [true, false]) {
  test(`a report with lettered appendices (${withOutline ? "with" : "without"} an outline): body chapters first, the long one split at its numbered sections, the appendices in one chapter after them`, async () => {
    const course = await syncCourse(
      env,
      filesForm({ num_chapters: "4" }, [
        { name: "harbour-report.pdf", content: await report(withOutline), type: "application/pdf" },
      ]),
    );
    const titles: string[] = course.chapters.map((c: { title: string }) => c.title);
    const runs = unitsIn(course);
    const appendix = (i: number) => i >= BODY.length;
    expect(titles).toHaveLength(4);
    // Three body chapters, then one of appendices alone.
    for (const run of runs.slice(0, 3)) expect(run.length > 0 && run.every((i) => !appendix(i))).toBe(true);
    expect(runs[3]!.every(appendix)).toBe(true);
    expect(titles[3]).toStartWith("Appendices: ");
    // Chapter 3 of the report split at its numbered sections, titled by them, never at a labelled paragraph.
    expect(titles[1]).toMatch(/^3\.1–3\.\d: Caulking/);
    expect(titles[2]).toMatch(/^3\.\d–3\.4: .*Fendering/);
    for (const t of titles) expect(t).not.toMatch(/Expected Outputs|Primary Responsibility/);
    // Every section in one chapter, in order.
    const firsts = runs.map((r) => Math.min(...r));
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    const body = runs.slice(0, 3).flat();
    expect(new Set(body).size).toBe(body.length);
  }, 300_000);
}

test("nist-sp800-37r2 in four chapters: its three chapters first, chapter 3 split at its sections, appendices B-H last", async () => {
  const path = join(ROOT, "../shared/corpus/books/nist-sp800-37r2.pdf");
  const course = await syncCourse(
    env,
    filesForm({ num_chapters: "4" }, [
      { name: "nist-sp800-37r2.pdf", content: await Bun.file(path).bytes(), type: "application/pdf" },
    ]),
  );
  const titles: string[] = course.chapters.map((c: { title: string }) => c.title);
  expect(titles).toHaveLength(4);
  expect(titles[1]).toStartWith("3.1–");
  expect(titles[2]).toEndWith("MONITOR");
  expect(titles[3]).toStartWith("Appendices: ");
  // Where each chapter's planned sections start and end.
  const planned = course.outline.chapters as { parts: { document_id: string; from: number; to: number }[] }[];
  const paragraphs = await documentParagraphs(env.srv.svc.sql, planned[0]!.parts[0]!.document_id);
  const pages = planned.map((c) => {
    const read = c.parts.flatMap((p) => paragraphs.slice(p.from, p.to)).filter((p) => p.page !== null);
    return [read[0]!.page!, read.at(-1)!.page!] as [number, number];
  });
  // The body ends where appendix A (references, not taught) begins, on page 103; the glossary (B) opens on 109.
  for (const [, last] of pages.slice(0, 3)) expect(last).toBeLessThanOrEqual(103);
  expect(pages[3]![0]).toBeGreaterThanOrEqual(109);
  // Chapter 3 ("THE PROCESS", pages 42-102) is the second and third chapters: its split falls on a section's page.
  expect(pages[1]![0]).toBe(42);
  expect([65, 69, 77, 80, 88, 95]).toContain(pages[2]![0]);
}, 300_000);
