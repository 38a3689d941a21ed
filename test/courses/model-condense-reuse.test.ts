/**
 * Condensed notes are made once (#30): a course from a document whose sections exceed a chapter
 * prompt, written by the model simulator at the default 8192-token window. The outline condenses
 * each chapter's own sections as that chapter will, before it plans; the chapters then find their
 * notes made and send no condensing call of their own, and no condensing prompt is sent twice.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { call, ROOT } from "../helpers/server.ts";
import { type SimulatedServer, startSimulatedServer } from "../helpers/simulated-server.ts";
import { filesForm } from "./helpers.ts";

setDefaultTimeout(120_000);

// Real prose: SciFact abstracts, twenty to a section, so each section is several prompts long.
const abstracts = readFileSync(join(ROOT, "../shared/corpus/qa/scifact/corpus.jsonl"), "utf8")
  .split("\n", 40)
  .map((line) => JSON.parse(line) as { title: string; text: string });
const section = (title: string, from: number) =>
  [`## ${title}`, ...abstracts.slice(from, from + 20).map((a) => a.text)].join("\n\n");
const DOCUMENT = [
  "# Findings in medicine",
  section("Development and imaging", 0),
  section("Cells and disease", 20),
].join("\n\n");

let s: SimulatedServer;
beforeAll(async () => {
  s = await startSimulatedServer({ env: { LLM_NUM_CTX: "8192", CHAPTER_CONCURRENCY: "2" } });
});
afterAll(() => s?.stop());

const isCondensing = (schema: Record<string, any> | null) => Boolean(schema?.properties?.notes);
const isOutline = (schema: Record<string, any> | null) => Boolean(schema?.properties?.chapters);

test("the outline condenses each chapter's sections once; the chapters reuse those notes", async () => {
  const before = s.sim.generations().length;
  const made = await call(s.srv, "/v2/courses/generate-from-files?mode=sync", {
    key: s.key,
    user: "reuse",
    body: filesForm({ num_chapters: "2", search_enabled: "false" }, [
      { name: "findings.md", content: DOCUMENT, type: "text/markdown" },
    ]),
  });
  expect(made.status).toBe(200);
  const course = (await call(s.srv, `/v2/courses/${made.body.course.id}`, { key: s.key, user: "reuse" })).body;
  expect(course.chapters).toHaveLength(2);

  const calls = s.sim.generations().slice(before);
  const condensing = calls.flatMap((c, i) => (isCondensing(c.sim.schema) ? [{ i, prompt: c.sim.prompt }] : []));
  const outlineAt = calls.findIndex((c) => isOutline(c.sim.schema));
  const chapters = calls.filter((c) => c.sim.chapter !== null);
  // Each section is longer than a chapter prompt holds: it had to be condensed, in more than one run.
  expect(condensing.length).toBeGreaterThanOrEqual(4);
  expect(chapters).toHaveLength(2);
  // No run condensed twice, and every condensing call made before the outline: none by the chapters.
  expect(new Set(condensing.map((c) => c.prompt)).size).toBe(condensing.length);
  expect(outlineAt).toBeGreaterThan(-1);
  expect(condensing.every((c) => c.i < outlineAt)).toBe(true);
  // Each chapter's prompt holds its own section's notes: both sections' text reached the chapters.
  for (const c of chapters) expect(c.sim.prompt).toMatch(/\[S1\] \(findings\.md/);
});
