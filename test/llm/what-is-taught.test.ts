/**
 * The built-in engine's reading of what a sentence teaches (#28/#29): a task set to the reader is no
 * statement, ", called Y" names the noun phrase right before it, a description without a subject
 * is paired with its heading's term, and a course description states what the sources are about.
 */
import { expect, test } from "bun:test";
import { aboutSentences } from "../../src/llm/extractive/about.ts";
import { findDefinitions } from "../../src/llm/extractive/definitions.ts";
import { subjectless, withEntryTerm } from "../../src/llm/extractive/entry-descriptions.ts";
import { exerciseHeading, setsTask } from "../../src/llm/extractive/tasks.ts";
import { sentencesOf } from "../../src/llm/extractive/text.ts";

test("an order after an opening phrase is a task; a statement after one is not", () => {
  expect(setsTask("Using the data from the survey, compute the mean birth weight of first babies.")).toBe(true);
  expect(setsTask("As a more challenging exercise, write a function that checks whether a word is a palindrome.")).toBe(
    true,
  );
  expect(setsTask("If you want to learn more about the shell, read the manual page of the builtin.")).toBe(true);
  expect(setsTask("Using dynamic programming, we can solve the problem in linear time.")).toBe(false);
  expect(setsTask("In Python, print displays a value on the screen.")).toBe(false);
  expect(setsTask("When the shell starts, it reads the startup files in order.")).toBe(false);
  // An entry's term may read as an order; its description is what is judged.
  expect(setsTask("access token — A credential that a client presents to reach a protected resource.")).toBe(false);
}, 60_000);

test("a section the document marks as exercises is the reader's tasks", () => {
  expect(exerciseHeading("3.14 Exercises")).toBe(true);
  expect(exerciseHeading(["Functions", "Exercise 4.2"])).toBe(true);
  expect(exerciseHeading("Problems")).toBe(true);
  expect(exerciseHeading("Problems with global variables")).toBe(false);
  expect(exerciseHeading("Assignment statements")).toBe(false);
}, 60_000);

const definitionsOf = (text: string) =>
  findDefinitions(sentencesOf([{ id: "p", text }]), text).map((d) => [d.term, d.predicate]);

test('", called Y" names the noun phrase right before it, never the clause before that', () => {
  const text =
    "Regression describes the relationship between one set of variables, called the dependent variables, and another set, called the independent variables. The dependent variables are what the model predicts. The dependent variables are measured last.";
  expect(definitionsOf(text).map(([term]) => term)).not.toContain("dependent variables");
  const buffer =
    "A program keeps its text in a sequence of characters, called a string buffer, that it reads line by line. A string buffer grows as needed. Each string buffer has a size.";
  expect(definitionsOf(buffer)).toContainEqual([
    "string buffer",
    "a sequence of characters that it reads line by line",
  ]);
  const memo =
    "Dynamic programming makes the function efficient using a technique called memoization, which stores each result. Memoization trades memory for time. With memoization, each value is computed once.";
  expect(definitionsOf(memo)).toContainEqual(["memoization", "a technique which stores each result"]);
  const mean =
    "The estimate is the mean of a sample of values, known as the sample mean, which estimates the population mean. The sample mean varies from sample to sample.";
  expect(definitionsOf(mean)).toContainEqual([
    "sample mean",
    "the mean of a sample of values which estimates the population mean",
  ]);
}, 60_000);

test("a description without a subject is paired with its heading's term, or is no statement", () => {
  expect(subjectless("The version number of the current instance of Bash.")).toBe(true);
  expect(subjectless("A colon-separated list of directories in which the shell looks for commands.")).toBe(true);
  expect(subjectless("Expands to a string describing the version of this instance of Bash.")).toBe(true);
  expect(subjectless("The shell reads its input from a file or from the terminal.")).toBe(false);
  expect(subjectless("TEX as we use it today was released in 1982.")).toBe(false);
  expect(withEntryTerm("The version number of the current instance of Bash.", "BASH_VERSION")).toBe(
    "BASH_VERSION — The version number of the current instance of Bash.",
  );
  expect(
    withEntryTerm("The version number of the current instance of Bash.", "6.2 What a version tells you, and why"),
  ).toBe(null);
  expect(withEntryTerm("The shell reads its input from a file.", "3.1 Shell Operation")).toBe(
    "The shell reads its input from a file.",
  );
}, 60_000);

test("a course's description is a sentence about its subject, never a pointer or a note on its code", () => {
  const candidates = [
    "See [RFC7322] for more information on the media resource control protocol and its messages.",
    "All of the code is written to work in both the old and the new versions of the control protocol.",
    "You can download the examples of the media resource control protocol from the web site.",
    "The media resource control protocol lets a client control speech servers over the network.",
  ];
  expect(aboutSentences(candidates, ["Media Resource Control Protocol"])).toEqual([candidates[3]!]);
}, 60_000);

test('"… is called Y" names the noun phrase before it, never a clause with a naming of its own', () => {
  const bugs =
    "For whimsical reasons, programming errors are called bugs and the process of tracking them down is called debugging. In debugging you read the code. Good debugging is like detective work.";
  expect(definitionsOf(bugs).filter(([term]) => term === "debugging")).toEqual([]);
  const recursion =
    "In Python, a function that calls itself is called a recursive function. A recursive function needs a base case. Each recursive function returns.";
  expect(definitionsOf(recursion)).toContainEqual(["recursive function", "a function that calls itself"]);
}, 60_000);
