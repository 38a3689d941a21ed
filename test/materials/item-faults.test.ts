/**
 * The reader's fault classes (#29), through the real API with the built-in engine: a course from a
 * text that holds each trap a reader found in generated items, read with the item-checks report's
 * checks (bench/quality/item-checks.ts), and the checks every item passes before it is stored.
 *   a. a definition cut at ";", at a colon or mid-list;       b. a "because" that explains another clause;
 *   c. code that reads a file the learner never sees;         d. a sentence that merely uses a term;
 *   e. exercises and instructions taught as facts;            f. a verb offered among nouns;
 *   g. "does" with a plural subject;                          h. an exam padded with repeats.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import {
  agreement,
  contextCard,
  contextDefinition,
  cutDefinition,
  type Item,
  instruction,
  kindOf,
  type Mcq,
  noReason,
  padded,
  readsInput,
  taughtSentences,
  wordClassMismatch,
} from "../../bench/quality/item-checks.ts";
import {
  choicesProblem,
  readsInput as codeReadsInput,
  cutShort,
  definesTerm,
  ItemSource,
  promptProblem,
  statementProblem,
} from "../../src/llm/artefacts/item-checks.ts";
import { findDefinitions } from "../../src/llm/extractive/definitions.ts";
import { causeFacts } from "../../src/llm/extractive/facts.ts";
import { setsTask } from "../../src/llm/extractive/tasks.ts";
import type { Sentence } from "../../src/llm/extractive/text.ts";
import type { TestApp } from "../helpers/app.ts";
import { courseMaterials } from "./course-materials.ts";

const TEXT = `# Working with files

## Files and paths

A file is a named location on a disk that keeps data between two runs of a program.
A function that calls itself is recursive; the process of executing it is called recursion.
In this example, the handle is an open file object, the name is a string and the mode is a flag.
A file handle is an object that a program uses to read from a file or to write to a file.
A file path is the sequence of directory names that leads to a file, as in the following example:

\`\`\`
/home/ada/notes.txt
\`\`\`

Write a function called count_lines that takes the name of a file and returns the number of its lines.
Exercise 4.2 asks for a function that copies the lines of one file into another file.
As an exercise, use the handle to write a function that prints the first line of a file.
Sometimes you want to traverse the lines of a file one line at a time.
A directory is a container that holds files and other directories under one name.
The mode is a string that tells the program whether to read the file or to write the file.
These values belong to different kinds: 'r' is a mode, and notes.txt is a path, so-called because it leads to the file.
Identifiers start with a letter or an underscore and go on with letters and digits.

\`\`\`
>>> fin = open('notes.txt')
>>> fin.readline()
'first line'
>>> len('banana')
6
>>> len('spam')
4
\`\`\`

## Loops over files

A loop is a statement that runs a block of code once for each item of a sequence.
A for loop reads a file line by line, because a file handle is a sequence of lines.
An iterator is an object that returns the items of a sequence one at a time.
A buffer is a region of memory that holds data while it moves between a disk and a program.
A newline is the character that ends each line of a text file.
The directory is a container that holds files and other directories under one name.
Closing a file releases the buffer, so the data reaches the disk before the program ends.
A file handle is an object that a program uses to read from a file or to write to a file.
Modify the function so that it skips the lines that start with a hash sign.
An empty line is a line that holds only the newline character.
`;

// Each item is tagged by the checks: on a loaded machine that takes seconds, not a fault.
setDefaultTimeout(60_000);

let srv: TestApp;
let items: Item[] = [];
let exam: Item[] = [];
let cards: { front: string; back: string }[] = [];
let guideText: string[] = [];
let keyTerms: { term: string; definition: string }[] = [];
let examAvailable = 0;
let examMessage = "";

beforeAll(async () => {
  const built = await courseMaterials<Item>(TEXT, "files.md", 2);
  srv = built.srv;
  const over = await built.ask("generate-exam", { exam_size: 30 });
  examAvailable = over.body.error?.details?.available ?? 30;
  examMessage = over.body.error?.message ?? "";
  exam = (over.body.exam?.questions ?? []) as Item[];
  items = [...built.quizzes.flat(), ...exam];
  cards = built.cards;
  keyTerms = built.sections.flatMap((s) => s.items ?? []);
  guideText = built.sections.flatMap((s) => [...(s.bullets ?? []), ...(s.body ? [s.body] : [])]);
}, 600_000);
afterAll(() => srv.stop());

const mcqs = () => items.filter((q): q is Mcq => q.type === "mcq");
const everyText = () => [
  ...items.flatMap((q) => [q.prompt, ...(q.type === "mcq" ? q.choices : q.type === "short_answer" ? q.rubric : [])]),
  ...cards.flatMap((k) => [k.front, k.back]),
  ...keyTerms.map((k) => k.definition),
  ...guideText,
];

test("the course asks enough to read (the traps leave the rest of the text to ask about)", () => {
  expect(mcqs().length).toBeGreaterThanOrEqual(6);
  expect(cards.length).toBeGreaterThanOrEqual(3);
});

describe("a. definitions are whole", () => {
  test("no answer, card or key term is cut at ';', at a colon or mid-list", () => {
    const definitions = [
      ...mcqs()
        .filter((q) => kindOf(q) === "term → definition")
        .map((q) => q.choices[q.answer]!),
      ...cards.map((k) => k.back),
      ...keyTerms.map((k) => k.definition),
    ];
    expect(definitions.filter(cutDefinition)).toEqual([]);
    expect(everyText().filter((t) => /the process of executing it$|as in the following example:$/.test(t))).toEqual([]);
  });
  test("the storing check knows each cut", () => {
    expect(cutShort("a function that calls itself is recursive; the process of executing it")).toBe(true);
    expect(cutShort("an open file object, the name is a string and the mode is a flag")).toBe(true);
    expect(cutShort("A file path is the sequence of directory names, as in the following example:")).toBe(true);
    expect(cutShort("a region of memory that holds data while it moves between a disk and a program")).toBe(false);
    // A relative clause keeps its preposition at its end; one cut from its object does not end there.
    expect(cutShort("A remote is a copy of the repository that developers push to and pull from.")).toBe(false);
    expect(cutShort("a fixed name for one commit, such as the commit that a release was built from")).toBe(false);
    expect(cutShort("a movable pointer that refers to")).toBe(true);
    expect(cutShort("a list of the files of")).toBe(true);
  });
});

const sentences = (texts: string[]): Sentence[] =>
  texts.map((text, index) => ({ text, index, passageId: "p", heading: null, stems: [], follows: index > 0 }));

test("a, d, e. the definitions found are whole, about their term, and no exercise", () => {
  const found = findDefinitions(
    sentences([
      "Copyright law is one such law in the statute books of most countries.",
      "Two files are a matched pair if each holds the lines of the other in reverse order.",
      "A function that calls itself is recursive; the process of executing it is called recursion.",
      "Write a function called count_lines that takes the name of a file and returns the number of its lines.",
      "A single note is a music expression:",
      "A buffer is a region of memory that holds data while it moves between a disk and a program.",
      "Copyright law, two files, recursion, count_lines, a single note and a buffer are named twice here.",
    ]),
  ).map((d) => `${d.term}: ${d.predicate}`);
  expect(found).toEqual([
    "recursion: the process of executing it",
    "buffer: a region of memory that holds data while it moves between a disk and a program",
  ]);
});

test("b. a 'because' that explains a name inside a list is no cause of the list", () => {
  const causes = causeFacts(
    sentences([
      "Modes and paths differ in kind: 'r' is a mode, and notes.txt is a path, so-called because it leads to the file.",
      "Short branches reduce merge conflicts, because fewer lines change while they are apart.",
      "Long branches drift apart from the main branch, and short ones merge cleanly because few lines change.",
    ]),
  ).map((c) => c.effect);
  expect(causes).toEqual(["Short branches reduce merge conflicts"]);
});

test("b. a reason item's answer is the reason its sentence gives for the clause it quotes", () => {
  expect(
    mcqs()
      .filter(noReason)
      .map((q) => q.prompt),
  ).toEqual([]);
  expect(everyText().filter((t) => t.includes("it leads to the file") && /\?$/.test(t))).toEqual([]);
});

test("c. no code-output item runs code that reads a file", () => {
  expect(
    mcqs()
      .filter(readsInput)
      .map((q) => q.prompt),
  ).toEqual([]);
  expect(everyText().filter((t) => t.includes("readline"))).toEqual([]);
  expect(codeReadsInput("fin = open('notes.txt'); fin.readline()")).toBe(true);
  expect(codeReadsInput("len('banana')")).toBe(false);
});

test("d. a definition item rests on a sentence about its term, and a card's front is a term", () => {
  expect(
    mcqs()
      .filter(contextDefinition)
      .map((q) => q.prompt),
  ).toEqual([]);
  expect(cards.filter(contextCard)).toEqual([]);
  expect(keyTerms.filter((k) => contextCard({ front: k.term, back: k.definition }))).toEqual([]);
  expect(everyText().filter((t) => /^What is the handle\?$/.test(t))).toEqual([]);
});

describe("e. exercises and instructions are not taught as facts", () => {
  test("no item, card or guide line is an exercise", () => {
    expect(items.filter((q) => taughtSentences(q).some(instruction)).map((q) => q.prompt)).toEqual([]);
    expect(cards.filter((k) => instruction(k.back))).toEqual([]);
    expect([...keyTerms.map((k) => k.definition), ...guideText].filter(instruction)).toEqual([]);
    expect(everyText().filter((t) => /count_lines|Exercise 4\.2|As an exercise|^Modify the function/.test(t))).toEqual(
      [],
    );
  });
  test("the storing checks know an exercise", () => {
    expect(setsTask("Write a function called count_lines that takes the name of a file.")).toBe(true);
    expect(setsTask("Exercise 4.2 asks for a function that copies a file.")).toBe(true);
    expect(setsTask("A loop is a statement that runs a block of code.")).toBe(false);
    expect(statementProblem("Modify the function so that it skips the lines that start with a hash.")).not.toBeNull();
    expect(definesTerm({ front: "Count lines", back: "Write a function called count lines that counts lines." })).toBe(
      false,
    );
  });
});

describe("f. a blank's choices are of its answer's word class", () => {
  test("no blank offers a verb or an adverb among nouns", () => {
    expect(
      mcqs()
        .filter(wordClassMismatch)
        .map((q) => `${q.prompt} [${q.choices.join(" | ")}]`),
    ).toEqual([]);
  });
  test("the storing check reads the usual class, and a word the document writes after an article as a noun", () => {
    const blank = (choices: string[]) => ({
      type: "mcq" as const,
      prompt: "Complete the statement: Sometimes you want to _____ the lines of a file.",
      choices,
      answer: 0,
      explanation: "",
    });
    expect(choicesProblem(blank(["traverse", "directory", "buffer", "iterator"]))).toContain("word class");
    expect(choicesProblem(blank(["buffer", "directory", "foremost", "iterator"]))).toContain("word class");
    expect(choicesProblem(blank(["buffer", "directory", "newline", "iterator"]))).toBeNull();
    const source = new ItemSource([
      "The file is open.",
      "A buffer holds data in a directory for an iterator.",
      "An iterator returns items.",
    ]);
    expect(choicesProblem(blank(["buffer", "directory", "file", "iterator"]), source)).toBeNull();
  });
});

test("g. questions agree with themselves", () => {
  expect([...items.map((q) => q.prompt), ...cards.map((k) => k.front)].filter(agreement)).toEqual([]);
  expect(promptProblem("According to the course, what does identifiers start?")).not.toBeNull();
  expect(promptProblem("According to the course, what do tweaking involves?")).not.toBeNull();
  expect(promptProblem("According to the course, what does a buffer hold?")).toBeNull();
  expect(promptProblem("According to the course, what do iterators return?")).toBeNull();
});

test("h. a source too short for an exam says so, rather than padding one", () => {
  expect(examAvailable).toBeLessThan(10);
  expect(examMessage).toContain(`only ${examAvailable} distinct exam questions`);
  expect(examMessage).toContain("too short for an exam");
  expect(padded(exam)).toBe(0);
});
