/**
 * The reader's classes of broken items from session 9's check (#29), through the real API with the
 * built-in engine: a course built from a text that holds each trap beside the real thing, then the
 * builders' own readings of the traps.
 *   1. a line whose output depends on chance, the clock or the machine, asked as "what does it display";
 *   2. a numbered list of questions or of things asked as an order of steps or a worked problem;
 *   3. a label or a heading swapped into a statement's subject ("Each time through the loop, Hint selects …");
 *   4. a sentence about the one value the code before it returns taken for the term's definition.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chapterMaterial } from "../../src/llm/extractive/material.ts";
import { quotesRunDependentCode, variesByRun } from "../../src/llm/extractive/run-dependent.ts";
import { sessionLines } from "../../src/llm/extractive/sessions.ts";
import { procedures } from "../../src/llm/extractive/steps.ts";
import { likeSwap, withLikeSwaps } from "../../src/llm/extractive/subject-role.ts";
import type { TestApp } from "../helpers/app.ts";
import { courseMaterials } from "./course-materials.ts";

const RANDOM_SESSION = ["```", ">>> import random", ">>> random.randint(5, 10)", "9", "```"].join("\n");
const SUM_SESSION = ["```", ">>> 40 + 2", "42", "```"].join("\n");
const CLOCK_SESSION = ["```", ">>> import time", ">>> time.time()", "1700000000.5", "```"].join("\n");
const EXERCISES = [
  "## Exercises",
  "",
  "1. What is a comparison sort and how does it decide the order of two items?",
  "2. Why does a stable sort keep equal items in their original order?",
  "3. How many comparisons does merge sort need for a list of eight items?",
].join("\n");
const THINGS = [
  "Before you start, the following programs are needed on the machine:",
  "",
  "1. A text editor for editing the source files of the program.",
  "2. A compiler for turning the source files into an executable program.",
  "3. A debugger for stepping through the program while it runs.",
].join("\n");
const PROCEDURE = [
  "The package is built from its sources in four steps:",
  "",
  "1. Download the tarball from the project's release page.",
  "2. Unpack the tarball into a new directory.",
  "3. Run the configure script in that directory.",
  "4. Install the compiled files with make install.",
].join("\n");
const POPEN = [
  "The function os.popen runs a shell command and gives back what it prints:",
  "",
  "```",
  ">>> f = os.popen('ls')",
  "```",
  "",
  "The return value is an object that behaves like an open file.",
].join("\n");

const TEXT = `# Programs and their results

## Sorting lists

A sorting algorithm is a procedure that puts the items of a list in order.
A comparison sort is a sorting algorithm that orders items only by comparing pairs of them.
A stable sort is a sort that keeps equal items in the order they had before sorting.
Merge sort is a comparison sort that splits the list in halves, sorts each half and merges them.
Insertion sort is a comparison sort that inserts each item into the sorted part before it.
A pivot is an item that quicksort chooses to split the list around.
Quicksort is a comparison sort that partitions the list around a pivot.

${EXERCISES}

## Random numbers and the clock

A module is a file that holds functions and variables for other programs to import.
The random module is a module that produces pseudorandom numbers for a program.
A seed is a number that fixes the sequence of pseudorandom numbers a generator produces.
The interpreter prints the value of every expression typed at its prompt:

${SUM_SESSION}

The randint function of the random module returns a whole number between its two arguments:

${RANDOM_SESSION}

The time module is a module that reads the clock of the machine.
The interpreter prints the current time as a number of seconds:

${CLOCK_SESSION}

A timestamp is a number of seconds since a fixed moment in the past.

## Building programs

A compiler is a program that translates source code into machine code.
A debugger is a program that runs another program step by step.
A tarball is an archive file that holds the sources of a package.
A package is a bundle of files that a package manager installs together.

${THINGS}

${PROCEDURE}

## Loops over tuples

A loop is a statement that runs its body once for each item of a sequence.
A tuple is a sequence of values that cannot be changed after it is made.
Each time through the loop, Python selects the next tuple from the list.
Hint: a tuple is written with parentheses around its values.
Hint: the loop ends when the list has no tuple left.
Python runs the body of the loop once for every tuple in the list.
The interpreter reads each statement of the loop before it runs any of them.

## Files and processes

A process is a running instance of a program with its own memory.
A pipe is a channel that carries the output of one process to the input of another.
A file object is an object that reads and writes the bytes of one file.
${POPEN}
A return value is the value that a function gives back to its caller.
`;

// Each item is tagged by the checks: on a loaded machine that takes seconds, not a fault.
setDefaultTimeout(60_000);

interface Item {
  type: string;
  prompt: string;
  choices?: string[];
  answer?: number | string;
  steps?: string[];
  explanation?: string;
}

let srv: TestApp;
let items: Item[] = [];
let cards: { front: string; back: string }[] = [];
let keyTerms: { term: string; definition: string }[] = [];

beforeAll(async () => {
  const built = await courseMaterials<Item>(TEXT, "programs.md", 4);
  srv = built.srv;
  items = [...built.quizzes.flat(), ...(await built.exam(12))];
  cards = built.cards;
  keyTerms = built.sections.flatMap((s) => s.items ?? []);
}, 600_000);
afterAll(() => srv.stop());

const everyText = (q: Item) => [q.prompt, ...(q.choices ?? []), ...(q.steps ?? []), String(q.answer ?? "")].join(" ");

describe("1. no item asks what run-dependent code printed", () => {
  test("the course asks what 40 + 2 displays, never what random.randint or time.time displayed", () => {
    const code = items.filter((q) => /^What does the code/.test(q.prompt)).map((q) => q.prompt);
    expect(code.some((p) => p.includes("40 + 2"))).toBe(true);
    // What is asked and its answer: the random and clock calls' names may still be other items' distractors.
    const asked = (q: Item) => `${q.prompt} ${typeof q.answer === "number" ? q.choices?.[q.answer] : q.answer}`;
    expect(items.filter((q) => /randint\(|time\.time\(|1700000000/.test(asked(q))).map((q) => q.prompt)).toEqual([]);
  });
  test("the session reader keeps the predictable line and leaves the random and clock lines out", () => {
    expect(
      sessionLines(`${SUM_SESSION}\n\n${RANDOM_SESSION}\n\n${CLOCK_SESSION}`).map((l) => `${l.input} → ${l.output}`),
    ).toEqual(["40 + 2 → 42"]);
    expect(variesByRun("x <- rnorm(5)")).toBe(true);
    expect(variesByRun("echo $RANDOM")).toBe(true);
    expect(variesByRun("sorted([3, 1, 2])")).toBe(false);
    expect(quotesRunDependentCode("For example, random.randint(5, 10) returned 9 on one run.")).toBe(true);
    expect(quotesRunDependentCode("Merge sort needs 24 comparisons for 8 items.")).toBe(false);
    expect(quotesRunDependentCode("It can be reset any time (but not within a picture) with 2 commands.")).toBe(false);
  });
});

describe("2. an order of steps only where the source shows a procedure", () => {
  test("the procedure is asked as steps, the exercises and the list of programs never", () => {
    const stepItems = items.filter((q) => /which step comes right after|step by step/.test(q.prompt));
    expect(
      stepItems.some((q) => /Download the tarball|Unpack the tarball|Run the configure script/.test(everyText(q))),
    ).toBe(true);
    // A lead-in names the list right after it only: the programs' lead-in never names the build's steps.
    expect(stepItems.filter((q) => q.prompt.includes("Before you start")).map((q) => q.prompt)).toEqual([]);
    expect(
      stepItems.filter((q) => /comparison sort|stable sort|text editor|compiler|debugger/.test(everyText(q))),
    ).toEqual([]);
  });
  test("the list reader keeps the procedure and leaves the questions and the things out", () => {
    expect(procedures(`${THINGS}\n\n${PROCEDURE}\n\n${EXERCISES}\n`).map((p) => p.title)).toEqual([
      "The package is built from its sources in four steps",
    ]);
    // What a program does in turn, in the third person, is a procedure too.
    const operation = [
      "The shell does the following:",
      "",
      "1. Reads its input from a file.",
      "2. Breaks the input into words and operators.",
      "3. Parses the tokens into simple and compound commands.",
    ].join("\n");
    expect(procedures(operation).map((p) => p.title)).toEqual(["The shell does the following"]);
    // Two lists run together, as a chapter may join them: numbering that starts again at 1 parts them.
    const items = (text: string) => text.split("\n").filter((l) => /^\d\./.test(l));
    const joined = ["## Building the package", "", ...items(THINGS), ...items(PROCEDURE)].join("\n");
    expect(procedures(joined)).toEqual([
      { title: "Building the package", steps: items(PROCEDURE).map((l) => l.replace(/^\d\.\s+/, "")) },
    ]);
  });
});

describe("3. a term swapped into a statement's subject is one the document has doing things", () => {
  test("no statement question puts the label Hint in a subject's place", () => {
    const statements = items.filter((q) => /^Which of these statements about/.test(q.prompt));
    expect(statements.flatMap((q) => q.choices ?? []).filter((c) => /\bHint (selects|runs|reads)\b/.test(c))).toEqual(
      [],
    );
    for (const q of statements) {
      const truth = q.choices![q.answer as number]!;
      expect(q.choices!.filter((c) => !likeSwap(truth, c, TEXT))).toEqual([]);
    }
  });
  test("the swap reader keeps a subject for a subject and drops a label, and leaves other slots alone", () => {
    const truth = "Each time through the loop, Python selects the next tuple from the list.";
    expect(likeSwap(truth, "Each time through the loop, Hint selects the next tuple from the list.", TEXT)).toBe(false);
    expect(
      likeSwap(truth, "Each time through the loop, the interpreter selects the next tuple from the list.", TEXT),
    ).toBe(true);
    expect(likeSwap(truth, "Each time through the loop, Python selects the next hint from the list.", TEXT)).toBe(true);
    const question = {
      type: "mcq" as const,
      prompt: "Which of these statements about the loop does the course make?",
      choices: [
        "Each time through the loop, Hint selects the next tuple from the list.",
        truth,
        "Each time through the loop, the interpreter selects the next tuple from the list.",
        "Each time through the loop, Python selects the next tuple from the sequence.",
      ],
      answer: 1,
      explanation: "The source says so.",
    };
    expect(withLikeSwaps(question, TEXT)).toEqual({ ...question, choices: question.choices.slice(1), answer: 0 });
  });
});

describe("4. a definition says what the term is, not what one call returned", () => {
  test("no definition item, card or key term defines the return value as what os.popen returned", () => {
    const texts = [
      ...items.filter((q) => /^(What (is|are|does)|Which term|Explain what)\b/.test(q.prompt)).map(everyText),
      ...cards.map((k) => `${k.front} ${k.back}`),
      ...keyTerms.map((k) => `${k.term} ${k.definition}`),
    ];
    expect(texts.filter((t) => /behaves like an open file/.test(t))).toEqual([]);
  });
  test("the chapter's definitions keep the general one and leave the instance out", () => {
    const content = [
      POPEN,
      "A return value is the value that a function gives back to its caller.",
      "A function gives a return value to its caller, and the return value can be any object.",
    ].join("\n\n");
    const found = chapterMaterial({ title: "Files", content, key_concepts: [] }, 0).definitions.map(
      (d) => `${d.term} → ${d.predicate}`,
    );
    expect(found).toEqual(["return value → the value that a function gives back to its caller"]);
  });
});
