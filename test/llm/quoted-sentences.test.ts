/**
 * Sentences no item quotes (#29, both found reading DEV's PARI/GP tutorial): a question the text asks
 * states nothing ("Which of these statements about different methods does the course make?" offered
 * "How can we compare two graphs of the same function plotted by different methods?" and three swaps
 * of it), and a sentence with a hole where the text lost a formula ("… you could have obtained
 * another unit than , had you not reset the random seed …") reads as broken.
 */
import { beforeAll, expect, test } from "bun:test";
import { hasLostText, LOST_TEXT } from "../../src/ingest/document.ts";
import { type ChapterSummary, writeExamQuestions } from "../../src/llm/artefacts.ts";
import { createLlm } from "../../src/llm/create.ts";
import type { Llm } from "../../src/llm/types.ts";
import { llmConfig } from "./support.ts";

const QUESTIONS = [
  "How can we compare two graphs of the same rational function plotted by different plotting methods?",
  "Which plotting method draws the smoother graph of a rational function near its poles?",
  "Why does the recursive plotting method refine the graph of a rational function only where it bends?",
  "What does the evenly spaced plotting method draw across the poles of a rational function?",
  "How many points does the recursive plotting method add to the graph of a polynomial?",
];

// A chapter that asks more than it states, as a tutorial's exercises do: the questions hold its terms.
const content = `## Plotting functions

A rational function is the quotient of two polynomials, and its graph has poles where the denominator vanishes.
${QUESTIONS.join(" ")}
The recursive plotting method samples the rational function again wherever two joined points of the graph bend too much.`;

let llm: Llm;
beforeAll(async () => {
  llm = await createLlm(llmConfig({ llmProvider: "extractive" }));
});

/** Every text of the exam items built from one chapter (the quiz's builders make its multiple choice). */
async function examTexts(title: string, content: string, key_concepts: string[]): Promise<string[]> {
  const chapter: ChapterSummary = { title, content, key_concepts };
  const qs = await writeExamQuestions(llm, { courseTitle: title, chapter, count: 12, types: ["mcq", "short_answer"] });
  expect(qs.length).toBeGreaterThan(0);
  return qs.flatMap((q) => [
    q.prompt,
    ...("choices" in q ? q.choices : []),
    ...("rubric" in q ? q.rubric : []),
    "explanation" in q ? (q.explanation ?? "") : "",
  ]);
}

test("no item quotes a question the text asks", async () => {
  const texts = await examTexts("Plotting functions", content, [
    "graph",
    "plotting method",
    "rational function",
    "polynomial",
    "poles",
  ]);
  for (const question of QUESTIONS) {
    const opening = question.split(" ").slice(0, 5).join(" ");
    expect(texts.filter((t) => t.includes(opening))).toEqual([]);
  }
});

test("no item quotes a sentence with a hole where a formula was", async () => {
  const holed = [
    "Since the fundamental unit depends on the random seed, you could have obtained another unit than , had you not reset the seed.",
    "The regulator of the quadratic field is close to , so the fundamental unit is large.",
  ];
  const texts = await examTexts(
    "Units of quadratic fields",
    `## Units of quadratic fields

A quadratic field is a number field of degree two over the rational numbers.
${holed[0]}
The fundamental unit of a real quadratic field generates its unit group together with minus one.
${holed[1]}
The regulator of a quadratic field is the logarithm of its fundamental unit.
The class number of a quadratic field counts the classes of its ideals up to principal ideals.`,
    ["quadratic field", "fundamental unit", "regulator", "random seed", "class number"],
  );
  expect(texts.filter((t) => /\s,/.test(t))).toEqual([]);
});

test("no item quotes a sentence holding the mark ingest leaves where a glyph had no text", async () => {
  const texts = await examTexts(
    "Units of quadratic fields",
    `## Units of quadratic fields

A quadratic field is a number field of degree two over the rational numbers.
Since the fundamental unit depends on the random seed, you could have obtained another unit than ${LOST_TEXT}, had you not reset the seed.
The fundamental unit of a real quadratic field generates its unit group together with minus one.
The regulator of the quadratic field is close to ${LOST_TEXT} so the fundamental unit is large.
The regulator of a quadratic field is the logarithm of its fundamental unit.
The class number of a quadratic field counts the classes of its ideals up to principal ideals.`,
    ["quadratic field", "fundamental unit", "regulator", "random seed", "class number"],
  );
  expect(texts.filter((t) => hasLostText(t))).toEqual([]);
});
