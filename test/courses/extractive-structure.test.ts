/** With no model, a course from a paper follows the paper: its title, its sections, each chapter reading its own pages. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { call, ROOT } from "../helpers/server.ts";
import { type CourseEnv, courseEnv } from "./helpers.ts";

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
  const form = new FormData();
  form.append("files", new Blob([await Bun.file(PAPER).arrayBuffer()], { type: "application/pdf" }), "tracemonkey.pdf");
  form.append("num_chapters", "4");
  const made = await call(env.srv.url, "/v2/courses/generate-from-files?mode=sync", { key: env.key, user: "reader", body: form });
  expect(made.status).toBe(200);
  const course = await call(env.srv.url, `/v2/courses/${made.body.course.id}`, { key: env.key, user: "reader" });

  expect(course.body.title).toBe("Trace-based Just-in-Time Type Specialization for Dynamic Languages");
  const titles: string[] = course.body.chapters.map((c: { title: string }) => c.title);
  expect(titles).toHaveLength(4);
  for (const t of titles) expect(Object.keys(SECTION_START)).toContain(t);
  // Back and front matter are not chapters, and nothing of the reference list is taught.
  expect(titles.join(" ")).not.toMatch(/References|Acknowledg|Abstract/);
  // The sections come in the paper's order.
  const starts = titles.map((t) => SECTION_START[t]!);
  expect(starts).toEqual([...starts].sort((a, b) => a - b));

  for (const ch of course.body.chapters.slice(1)) {
    const pages: number[] = ch.sources.map((s: { page: number }) => s.page);
    const start = SECTION_START[ch.title]!;
    // A chapter opens with its own section, not with the summary pages that match every title.
    expect(pages[0]!).toBeGreaterThanOrEqual(start);
    expect(pages[0]!).toBeLessThanOrEqual(start + 3);
    expect(ch.content).not.toMatch(/\/\/ (load|store)/);
  }
});
