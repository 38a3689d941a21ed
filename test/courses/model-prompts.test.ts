/** What a real model is shown when it plans a course from a long document (fake Ollama, real server). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { headingPaths } from "../../src/ingest/document.ts";
import { fileLimits } from "../../src/ingest/run-extraction.ts";
import type { RecordedCall } from "../helpers/fake-ollama.ts";
import { ROOT } from "../helpers/server.ts";
import { sharedExtraction } from "../helpers/shared-extraction.ts";
import { type CourseEnv, chapterCalls, courseEnv, filesForm, outlineCalls, syncCourse } from "./helpers.ts";

const PAPER = join(ROOT, "../shared/corpus/pdf/tracemonkey.pdf");

let env: CourseEnv;
beforeAll(async () => {
  // A context the paper fits in whole, so prompts show its text as written (long-sources.test.ts
  // covers sources that must be condensed to fit).
  env = await courseEnv({ env: { LLM_NUM_CTX: "65536" } });
});
afterAll(() => env.stop());

const squash = (s: string) => s.replace(/\s+/g, " ");

/**
 * The paper's course in four chapters, built once for both tests (the build is most of their CPU),
 * with the outline and chapter calls the fake model was sent for it.
 */
let built: Promise<{ course: any; outlines: RecordedCall[]; chapters: RecordedCall[] }> | undefined;
const paperCourse = () =>
  (built ??= (async () => {
    const [outlinesBefore, chaptersBefore] = [outlineCalls(env.fake!).length, chapterCalls(env.fake!).length];
    const form = filesForm({ num_chapters: "4", search_enabled: "false" }, [
      { name: "tracemonkey.pdf", content: await Bun.file(PAPER).bytes(), type: "application/pdf" },
    ]);
    const course = await syncCourse(env, form, "planner");
    return {
      course,
      outlines: outlineCalls(env.fake!).slice(outlinesBefore),
      chapters: chapterCalls(env.fake!).slice(chaptersBefore),
    };
  })());

test("the outline prompt samples the whole document: text of its last sections is in it", async () => {
  // The paper's own last two numbered sections (Conclusions, Future Work), read from its document model.
  const { blocks } = await sharedExtraction(PAPER, fileLimits(loadConfig()));
  const paths = headingPaths(blocks);
  const lastSections = new Set(
    blocks
      .filter((b) => b.kind === "heading" && b.role === "body" && /^\d+\.?\s/.test(b.text))
      .slice(-2)
      .map((b) => b.text),
  );
  expect(lastSections.size).toBe(2);
  const tail = blocks.filter(
    (b, i) => b.kind === "paragraph" && b.role === "body" && paths[i]!.some((h) => lastSections.has(h)),
  );
  expect(tail.length).toBeGreaterThan(0);

  const [outline] = (await paperCourse()).outlines;
  const prompt = squash(JSON.stringify(outline!.body!.messages ?? outline!.body!.prompt));
  // A sample that stopped after the first pages would hold none of this.
  expect(tail.some((b) => prompt.includes(squash(b.text).slice(0, 60)))).toBe(true);
});

test("a chapter prompt holds its own sections' text and the whole outline, and none of the other chapters' text", async () => {
  const { blocks } = await sharedExtraction(PAPER, fileLimits(loadConfig()));
  const paths = headingPaths(blocks);
  const sections = blocks
    .filter((b) => b.kind === "heading" && b.role === "body" && /^\d+\.\s/.test(b.text))
    .map((b) => b.text);
  // The first paragraph of each numbered section, as the model would be shown it.
  const opening = new Map(
    sections.map(
      (s) =>
        [
          s,
          blocks.find((b, i) => b.kind === "paragraph" && b.role === "body" && paths[i]!.at(-1) === s)!.text,
        ] as const,
    ),
  );
  const { course, chapters: calls } = await paperCourse();
  const titles: string[] = course.chapters.map((c: { title: string }) => c.title);
  expect(calls).toHaveLength(4);
  const seen: number[][] = [];
  for (const c of calls) {
    const prompt = squash(c.body!.messages.map((m: { content: string }) => m.content).join("\n"));
    // The whole outline, so the chapter neither repeats nor skips what the others teach.
    for (const t of titles) expect(prompt).toContain(t);
    expect(prompt).toContain("<- this chapter");
    // Its own sources' text, after the outline (whose objectives the fake model writes from any part of the paper).
    const own = prompt.slice(prompt.indexOf("This chapter's own sections"));
    expect(own.length).toBeLessThan(prompt.length);
    seen.push(sections.flatMap((s, i) => (own.includes(squash(opening.get(s)!).slice(0, 50)) ? [i] : [])));
  }
  // Each prompt holds a contiguous run of the paper's sections; together they hold each section exactly once.
  for (const run of seen) {
    expect(run.length).toBeGreaterThan(0);
    expect(run).toEqual(Array.from({ length: run.length }, (_, k) => run[0]! + k));
  }
  expect(seen.flat().sort((a, b) => a - b)).toEqual(sections.map((_, i) => i));
});
