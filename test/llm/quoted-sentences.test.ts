/**
 * Sentences no item quotes (#29, both found reading DEV's PARI/GP tutorial): a question the text asks
 * states nothing ("Which of these statements about different methods does the course make?" offered
 * "How can we compare two graphs of the same function plotted by different methods?" and three swaps
 * of it), and a sentence with a hole where the text lost a formula ("… you could have obtained
 * another unit than , had you not reset the random seed …") reads as broken. A sentence that announces
 * what follows it ("… can be realized as follows.") is empty without it, and items and the guide
 * do not show it.
 */
import { beforeAll, expect, test } from "bun:test";
import { hasLostText, LOST_TEXT } from "../../src/ingest/document.ts";
import { type ChapterSummary, writeExamQuestions, writeStudyGuide } from "../../src/llm/artefacts.ts";
import { createLlm } from "../../src/llm/create.ts";
import type { Llm } from "../../src/llm/types.ts";
import { engineThread } from "../helpers/engine-thread.ts";
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
  llm = await createLlm(llmConfig({ llmProvider: "extractive" }), { builds: engineThread });
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

test("no item or guide line quotes a sentence that announces what it does not show", async () => {
  // Items and the guide show sentences without the code or list that follows them in the chapter.
  const announcing = [
    "For well-behaved build systems, the split of a source package into several binary packages can be realized as follows.",
    "The packaging of a simple C program with a standard build system is done with the helper command as follows:",
    "After a source package has been unpacked, the build command performs the following actions.",
    "Several binary packages carry no compiled code; those are noted below.",
  ];
  const chapterContent = `## Binary packages

${announcing[0]}

\`\`\`
Package: libfoo1
Package: libfoo-dev
\`\`\`

A binary package is the file a user installs, built from one source package.
A source package holds the upstream tarball and the packaging files that describe how it is built.
${announcing[1]}

\`\`\`
$ tar -xzf foo-1.0.tar.gz
$ helper
\`\`\`

The build command runs the package's build system and collects the installed files into binary packages.
${announcing[2]}

1. It runs the build system of the source package.
2. It collects the installed files into binary packages.

A binary package that holds only data files is architecture-independent.
${announcing[3]}

- libfoo-doc
- libfoo-data

A maintainer tests a new binary package by installing it in a clean chroot before uploading it.`;
  const concepts = ["binary package", "source package", "build system", "upstream tarball", "chroot"];
  const texts = await examTexts("Binary packages", chapterContent, concepts);
  const guide = await writeStudyGuide(llm, {
    courseTitle: "Packaging",
    chapters: [{ title: "Binary packages", content: chapterContent, key_concepts: concepts }],
  });
  const lines = guide.sections.flatMap((s) => ("body" in s ? [s.body] : "bullets" in s ? s.bullets : []));
  for (const sentence of announcing) {
    const opening = sentence.split(" ").slice(0, 6).join(" ");
    expect(texts.filter((t) => t.includes(opening))).toEqual([]);
    expect(lines.filter((t) => t.includes(opening))).toEqual([]);
  }
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
