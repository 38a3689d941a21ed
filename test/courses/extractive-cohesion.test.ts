/**
 * Courses built without a model from real papers read without their missing context: a sentence
 * that leans on the one before it ("These instructions…", "This represents…", "As a result, …")
 * comes with that one, and no sentence walks through a figure or table the learner cannot see.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { ROOT } from "../helpers/server.ts";
import { type CourseEnv, corpusForm, courseEnv, syncCourse } from "./helpers.ts";

// Each test builds a whole course from a real document through a real server.
setDefaultTimeout(300_000);

const CORPUS = join(ROOT, "../shared/corpus");

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(() => env.stop());

/** The course's chapters' markdown, joined. */
async function courseText(path: string): Promise<string> {
  const course = await syncCourse(env, await corpusForm(join(CORPUS, path)));
  return course.chapters.map((ch: { content: string }) => ch.content).join("\n\n");
}

/**
 * Each kept sentence of `pairs` (a sentence that leans back, and the end of the source sentence
 * before it) comes right after that sentence; at least one is kept, so the check is not empty.
 */
function keptWithAntecedents(text: string, pairs: [antecedentEnd: string, leaning: string][]) {
  const kept = pairs.filter(([, leaning]) => text.includes(leaning));
  expect(kept.length).toBeGreaterThan(0);
  for (const [antecedentEnd, leaning] of kept) expect(text).toContain(`${antecedentEnd} ${leaning}`);
}

test("TraceMonkey paper: back-references come with their antecedents, the example run's figure is not walked through", async () => {
  const text = await courseText("pdf/tracemonkey.pdf");
  // Before, both were kept alone: "These instructions exit from the trace…" and "This represents a mis-speculation…".
  keptWithAntecedents(text, [
    ["generates conditional exit LIR instructions.", "These instructions exit from the trace"],
    ["ends with a double value.", "This represents a mis-speculation"],
    ["the VM must record traces starting at all side exits.", "These traces are recorded much like root traces"],
  ]);
  // Section 2 narrates Figure 2 and the listing of Figure 1: trace labels, line numbers, the figure itself.
  expect(text).not.toMatch(/\bT16\b|\bT45\b|T23,1|\bline \d|Figure 2/);
  // A citation split onto the next sentence ("invariant. (12) For example, …") goes back to its own sentence.
  expect(text).not.toMatch(/(^|[.!?] )\(\d+\) \p{Lu}/mu);
  // A subsection whose best sentences lean back ("As a result, …", "In this case, …") is still taught.
  expect(text).toContain("### 3.3 Blacklisting");
});

test("DPR paper: no sentence reads a table's blocks or examples the learner does not see", async () => {
  const text = await courseText("pdf/dpr-paper-multi-column.pdf");
  // Before: "…hard negative passages … (the bottom block)." and "In the first example, the top scoring passage…".
  expect(text).not.toMatch(/the (top|bottom) block|In the first example/);
  keptWithAntecedents(text, [
    ["wrote questions after seeing the passage.", "As a result, there is a high lexical overlap"],
    ["already outperforms BM25.", "This suggests that with a general pretrained language model"],
  ]);
});
