/**
 * The reader's classes of weak and broken items left after the fault classes a-h (#29, session 5),
 * through the real API with the built-in engine: a course from a text that holds each trap, read
 * with the item-checks report's checks (bench/quality/item-checks.ts), and the builders' and the
 * storing checks' answers on the traps themselves.
 *   1. a "Because …" opening another sentence taken for this one's reason; a reason item's effect naming nothing;
 *   2. a sentence about one instance of a term taken for its definition;
 *   3. a short form of the answer, a clause fragment or a word of another class among the choices;
 *   4. "what does the function create?": a subject the question cannot show, or an answer no object;
 *   5. guide bullets cut at a break or leaning on the sentence before, trivia key facts, front-matter headings;
 *   6. quizzes of three kinds where the chapter states what its terms do.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import {
  choiceFault,
  clauseFragment,
  contextCard,
  guideFaults,
  kindOf,
  type Mcq,
  noReason,
  shortFormOf,
  vagueRole,
} from "../../bench/quality/item-checks.ts";
import {
  ItemSource,
  roleProblem,
  sameThing,
  sameWordClass,
  clauseFragment as storedFragment,
} from "../../src/llm/artefacts/item-checks.ts";
import { findDefinitions } from "../../src/llm/extractive/definitions.ts";
import { swapped, termDistractors } from "../../src/llm/extractive/distractors.ts";
import { causeFacts } from "../../src/llm/extractive/facts.ts";
import { chapterMaterial } from "../../src/llm/extractive/material.ts";
import { mcqCandidates, poolOf } from "../../src/llm/extractive/questions.ts";
import { extractiveStudyGuide } from "../../src/llm/extractive/study-guide.ts";
import type { Sentence } from "../../src/llm/extractive/text.ts";
import type { TestApp } from "../helpers/app.ts";
import { courseMaterials, type GuideSection } from "./course-materials.ts";

const TEXT = `# Shells and processes

## Running commands

A shell is a program that reads commands and runs them as processes.
A process is a running instance of a program with its own memory and its own identifier.
The return value is the final status of the ls process.
The total running time is the product of these values.
The third subtree is a tree with a rounded box at its root.
A simple solution is to compute the angle as 360.0 / n Because the numerator is a floating-point number, the result is floating point.
This is a choice we made because users seldom want to rotate an object around a point.
Because a pipe connects the output of one process to the input of the next, the shell runs both processes at once.
Bash expands wildcards before the command runs.
A kernel schedules every process on the processors of the machine.
A scheduler decides which process runs next on each processor.
A pipeline passes data from one process to the next without temporary files.
The function creates a new list.
A terminal shows the output of the foreground process.
An environment holds the variables that a process inherits from its parent.

## Signals and jobs

A signal is a message that the kernel delivers to a process to interrupt it.
A job is a pipeline that the shell started and still tracks.
Bash keeps a table of jobs that it started in the background.
A kernel delivers signals to processes when they return from a system call.
A handler is a function that a process runs when a signal arrives.
WebAssembly is a binary format that browsers run next to scripts.
Wasm modules load quickly in every browser.
The header of a job table lists the job number, its state and its command line.
For one thing, this is just the mode of the job.
Note, however, a daemon keeps running after the terminal that started it closes.
Bash waits for the foreground job before it reads the next command.
A daemon is a process that runs in the background without a terminal.
A kernel sends a signal to the parent when a child process ends.
Every process has a parent, except the first process the kernel starts.
`;

// Each item is tagged by the checks: on a loaded machine that takes seconds, not a fault.
setDefaultTimeout(60_000);

let srv: TestApp;
let quizzes: Mcq[][] = [];
let cards: { front: string; back: string }[] = [];
let sections: GuideSection[] = [];

beforeAll(async () => {
  const built = await courseMaterials<Mcq>(TEXT, "shells.md", 2);
  ({ srv, quizzes, cards, sections } = built);
}, 600_000);
afterAll(() => srv.stop());

const mcqs = () => quizzes.flat();
const sentences = (texts: string[]): Sentence[] =>
  texts.map((text, index) => ({ text, index, passageId: "p", heading: null, stems: [], follows: index > 0 }));

describe("1. a reason is the one its own sentence gives", () => {
  test("no reason item quotes a run-on sentence or an effect that names nothing", () => {
    const reasons = mcqs().filter((q) => q.prompt.startsWith("What reason"));
    expect(reasons.filter(noReason).map((q) => q.prompt)).toEqual([]);
    expect(reasons.filter((q) => /A simple solution|This is a choice/.test(q.prompt))).toEqual([]);
  });
  test("the builder reads 'Because X, Y' as Y's reason, and no other sentence's", () => {
    const causes = causeFacts(
      sentences([
        "A simple solution is to compute the angle as 360.0 / n Because the numerator is a floating-point number, the result is floating point.",
        "This is a choice we made because users seldom want to rotate an object around a point.",
        "Because a pipe connects the output of one process to the input of the next, the shell runs both processes at once.",
        "Short branches reduce merge conflicts, because fewer lines change while they are apart.",
        "In other losing states, any move leads to a winning state for the other player.",
      ]),
    ).map((c) => `${c.effect} ⇐ ${c.cause}`);
    expect(causes).toEqual([
      "the shell runs both processes at once ⇐ a pipe connects the output of one process to the input of the next",
      "Short branches reduce merge conflicts ⇐ fewer lines change while they are apart",
    ]);
  });
});

describe("2. a definition says what the term is, not what one instance is", () => {
  test("no card, key term or definition item rests on an instance", () => {
    const keyTerms = sections.flatMap((s) => s.items ?? []);
    const texts = [...cards.map((k) => k.back), ...keyTerms.map((k) => k.definition), ...mcqs().map((q) => q.prompt)];
    expect(texts.filter((t) => /ls process|these values|third subtree/.test(t))).toEqual([]);
    expect(cards.filter(contextCard)).toEqual([]);
  });
  test("the builder leaves instances out and keeps definitions", () => {
    const found = findDefinitions(
      sentences([
        "The return value is the final status of the ls process.",
        "The total running time is the product of these values.",
        "The third subtree is a tree with a rounded box at its root.",
        "A daemon is a process that runs in the background without a terminal.",
        "The return value, the total running time, the third subtree and a daemon are named twice here.",
      ]),
    ).map((d) => d.term);
    expect(found).toEqual(["daemon"]);
  });
  test("a chapter's code names its variables: an object handed to one, or a type and its variable, is no definition", () => {
    const content = [
      "To create a point, you call Point as if it were a function.",
      "",
      ">>> blank = Point()",
      ">>> blank.x = 3.0",
      "",
      "The return value is a reference to a Point object, which we assign to blank.",
      "Point c is the middle of the segment as a consequence of the standard equations.",
      "Figures 3 and 4 show showObj run on a PTree object called ptre, slightly rearranged.",
      "This chapter shows some of the abilities of a Maxima package called dimension.",
      "A return value is the value that a function gives back to its caller.",
      "",
      "    pair c = (0, 0);",
      "",
      "The return value of a call, ptre, dimension and Point c are named twice here; a blank line ends a block.",
    ].join("\n");
    const terms = chapterMaterial({ title: "Classes and objects", content, key_concepts: [] }, 0).definitions.map(
      (d) => `${d.term} → ${d.predicate}`,
    );
    expect(terms).toEqual(["return value → the value that a function gives back to its caller"]);
  });
  test("a label heading several lines is a form's field, and a labelled sentence defines its own term", () => {
    const found = findDefinitions(
      sentences([
        "Expected Outputs: A report indicating the authorization decision for a system.",
        "Discussion: Risk tolerance is the degree of risk that is acceptable to an organization.",
        "Expected Outputs: A plan of action and milestones detailing the findings.",
        "Discussion: The results of monitoring activities are reported to the authorizing official.",
        "Risk tolerance and expected outputs are named twice here.",
      ]),
    ).map((d) => `${d.term} → ${d.sentence.text}`);
    expect(found).toEqual([
      "Risk tolerance → Risk tolerance is the degree of risk that is acceptable to an organization.",
    ]);
  });
});

describe("3. choices are other answers of the answer's kind, whole", () => {
  test("no choice is the answer's short form, a fragment, or a swap of another word class", () => {
    expect(mcqs().flatMap((q) => choiceFault(q) ?? [])).toEqual([]);
  });
  test("the builders' and checks' readings of the traps", () => {
    for (let seed = 0; seed < 20; seed++)
      expect(
        termDistractors("WebAssembly", ["Wasm", "JavaScript", "Rust", "Python", "Go", "scripts"], "", seed),
      ).not.toContain("Wasm");
    expect(sameThing("Wasm", "WebAssembly")).toBe(true);
    expect(sameThing("mean", "median")).toBe(false);
    expect(shortFormOf("DOM", "Document Object Model")).toBe(true);
    for (const fragment of [clauseFragment, storedFragment]) {
      expect(fragment("the header indicates that the new class")).toBe(true);
      expect(fragment("with a number of emulation layers for classes")).toBe(true);
      expect(fragment("In other losing states, any move")).toBe(true);
      expect(fragment("a path that visits each node of the graph exactly once")).toBe(false);
      expect(fragment("on a given path, a position can be specified with labpos")).toBe(false);
    }
    // "file" is mostly a verb in SemCor: the document's "the file" makes it a noun here.
    const source = new ItemSource(["Open the file in the directory."]);
    expect(sameWordClass("file", "foremost", source)).toBe(false);
    expect(sameWordClass("file", "directory", source)).toBe(true);
    // "a linear equation" writes "linear" as a modifier: it stays an adjective, no noun's swap.
    const algebra = new ItemSource(["Solve a linear equation by differentiation; the differentiation of a sum."]);
    expect(sameWordClass("differentiation", "linear", algebra)).toBe(false);
    // A name is swapped only for a name of its form: an abbreviation for an abbreviation.
    const rmf = new ItemSource(["The RMF and the SDLC apply. Risk is high."]);
    const sentence = "While mandatory for federal use, the RMF can be applied to any organization.";
    expect(swapped(sentence, "RMF", "Risk", rmf)).toBeNull();
    expect(swapped(sentence, "RMF", "SDLC", rmf)).toContain("the SDLC can be applied");
  });
});

describe("4. a question names what it asks about", () => {
  test("no 'what does X do' question asks of a subject it cannot show or answers with no object", () => {
    expect(mcqs().flatMap((q) => vagueRole(q) ?? [])).toEqual([]);
    expect(mcqs().filter((q) => /what does the function create/i.test(q.prompt))).toEqual([]);
  });
  test("the storing check's reading", () => {
    expect(roleProblem("the function", "a new list")).not.toBeNull();
    // As a sentence opens with it, for "which term does the course say …?" asked of its subject.
    expect(roleProblem("The algorithm", "the function ok O(log z) times")).not.toBeNull();
    expect(roleProblem("multiple", "the same overlay")).not.toBeNull();
    expect(roleProblem("OpenMP", "with parallel regions")).not.toBeNull();
    expect(roleProblem("the kernel", "every process")).not.toBeNull();
    expect(roleProblem("the scheduler", "which process runs next")).not.toBeNull();
    expect(roleProblem("the rm function", "objects from the workspace")).toBeNull();
  });
});

describe("5. the study guide's bullets stand alone", () => {
  test("no guide bullet is cut, leans on the sentence before, or is trivia", () => {
    expect(guideFaults(sections)).toEqual([]);
    expect(
      sections.flatMap((s) => s.bullets ?? []).filter((b) => /For one thing|this is just|however/.test(b)),
    ).toEqual([]);
  });
  test("no quiz teaches a leaning sentence as a statement or quotes one", () => {
    const taught = mcqs().flatMap((q) => (q.prompt.includes("statement") ? q.choices : [q.explanation ?? ""]));
    expect(taught.filter((t) => /For one thing|this is just|Note, however/.test(t))).toEqual([]);
  });
  test("the statement swaps and the guide take no sentence leaning on the one before, by one test of its opening", () => {
    const leaning = [
      "Note, however, the kernel schedules every process on the processors of the machine.",
      "Additionally, the shell passes every signal to the foreground process of the terminal.",
      "For one thing, the scheduler gives each process of the machine a share of the processors.",
      "For simple shells this is just the process that the terminal started first.",
    ];
    const plain = [
      "The kernel schedules every process on the processors of the machine.",
      "The shell passes every signal to the foreground process of the terminal.",
      "The scheduler gives each process of the machine a share of the processors.",
      "A daemon is a process that runs in the background without a terminal.",
    ];
    const chapter = {
      title: "Processes",
      content: [...leaning, ...plain].join(" "),
      key_concepts: ["kernel", "process", "shell", "scheduler", "terminal", "processors"],
    };
    const m = chapterMaterial(chapter, 0);
    const statements = mcqCandidates(m, poolOf([m])).filter((c) => c.kind === "statement");
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.map((c) => c.sentence.text).filter((t) => leaning.includes(t))).toEqual([]);
    const guide = extractiveStudyGuide({ courseTitle: "Processes", chapters: [chapter] });
    const taught = guide.sections.flatMap((s) => ("bullets" in s ? s.bullets : "body" in s ? [s.body] : []));
    expect(taught.filter((t) => leaning.some((l) => t.includes(l)))).toEqual([]);
  });
});

test("6. a chapter that states what its terms do mixes three kinds, one asking which term does it", () => {
  const first = quizzes[0] ?? [];
  expect(new Set(first.map(kindOf)).size).toBeGreaterThanOrEqual(3);
  expect(mcqs().some((q) => q.prompt.startsWith("Which term does the course say "))).toBe(true);
});
