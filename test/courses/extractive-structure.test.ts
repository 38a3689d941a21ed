/** With no model, a course from a paper follows the paper: its title, its sections, each chapter reading its own pages. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT } from "../helpers/server.ts";
import { type CourseEnv, corpusForm, courseEnv, filesForm, syncCourse } from "./helpers.ts";

const PAPER = join(ROOT, "../shared/corpus/pdf/tracemonkey.pdf");
// The paper's numbered sections and the pages they start on (checked against the PDF).
const SECTION_START: Record<string, number> = {
  Introduction: 1,
  "Overview: Example Tracing Run": 2,
  "Trace Trees": 4,
  "Nested Trace Tree Formation": 6,
  "Trace Tree Optimization": 7,
  Implementation: 8,
  Evaluation: 10,
  "Related Work": 12,
  Conclusions: 13,
  "Future Work": 13,
};

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(() => env.stop());

test("titles come from the paper's headings and chapters are grounded in their own sections", async () => {
  const course = await syncCourse(env, await corpusForm(PAPER));

  expect(course.title).toBe("Trace-based Just-in-Time Type Specialization for Dynamic Languages");
  const titles: string[] = course.chapters.map((c: { title: string }) => c.title);
  expect(titles).toHaveLength(4);
  // A chapter is a run of the paper's own sections, titled by their headings ("A, B and C").
  const sectionsOf = (t: string) => t.split(/, | and /);
  for (const t of titles) for (const s of sectionsOf(t)) expect(Object.keys(SECTION_START)).toContain(s);
  // Together the chapters cover every section, once each, in the paper's order.
  expect(titles.flatMap(sectionsOf)).toEqual(Object.keys(SECTION_START));
  // Back matter is not taught.
  expect(titles.join(" ")).not.toMatch(/References|Acknowledg/);
  const contents = course.chapters.map((c: { content: string }) => c.content).join("\n");
  expect(contents).not.toMatch(/\[\d+\] [A-Z]\. [A-Z][a-z]+/);

  for (const ch of course.chapters) {
    const pages: number[] = ch.sources.map((s: { page: number }) => s.page);
    const [first] = sectionsOf(ch.title);
    const last = sectionsOf(ch.title).at(-1)!;
    const next = Object.values(SECTION_START).find((p) => p > SECTION_START[last]!) ?? 14;
    // A chapter reads its own pages only: from its first section's page to where the next chapter's begins.
    expect(Math.min(...pages)).toBeGreaterThanOrEqual(SECTION_START[first!]!);
    expect(Math.max(...pages)).toBeLessThanOrEqual(next);
    expect(ch.content).not.toMatch(/\/\/ (load|store)/);
    // Every source says which paragraphs it grounds, and every paragraph of prose is grounded.
    const grounded = new Set(ch.sources.flatMap((s: { paragraphs: number[] }) => s.paragraphs));
    ch.content.split(/\n\s*\n/).forEach((para: string, i: number) => {
      if (!para.startsWith("#")) expect(grounded.has(i)).toBe(true);
    });
  }
});

test("a source with one long section split into several chapters names them as its parts, in order", async () => {
  const topics = ["tides", "currents", "waves", "estuaries", "reefs", "sediment", "salinity", "upwelling", "lagoons"];
  const paragraphs = topics.map(
    (t) =>
      `The study of ${t} explains how coastal water behaves over a day. Observers record ${t} at fixed stations along the shore. Long records of ${t} show seasonal patterns that sailors and engineers rely on when they plan their work near the coast.`,
  );
  const abstract =
    "Coastal waters change with the moon, the wind and the rivers that feed them, and this note follows each in turn.";
  const text = `# Coastal Waters\n\n## Abstract\n\n${abstract}\n\n## Introduction\n\n${paragraphs.join("\n\n")}\n`;
  const course = await syncCourse(env, filesForm({ num_chapters: "4" }, [{ name: "coast.md", content: text }]));
  const titles = (course.chapters as { title: string }[]).map((c) => c.title);
  // The abstract is too short to stand alone, so the introduction is cut between paragraphs into all four.
  expect(titles).toEqual([1, 2, 3, 4].map((k) => `Introduction (part ${k} of 4)`));
});
