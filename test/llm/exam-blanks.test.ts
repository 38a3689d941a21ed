/**
 * An exam of mixed kinds where the chapter and the sections it was written from offer them (#29:
 * DEV exams were 46% fill-in-the-blank, one in two, while their sections held statements and
 * definitions left unasked): blanks wait while they would pass 40% of what is taken, as in a quiz.
 */
import { expect, test } from "bun:test";
import { extractiveExamQuestions } from "../../src/llm/extractive/exam.ts";
import { promptKind } from "../../src/llm/extractive/prompt-kinds.ts";

const SECTIONS = [
  `## Processes

A process is a running instance of a program with its own memory and its own identifier.
The kernel schedules every process on the processors of the machine many times a second.
Every process has a parent process, so the processes of a machine form a tree.
The shell starts a new process for each external command that the user types.
A daemon runs in the background and answers requests from other processes.`,
  `## Signals

A signal is a short message that the kernel delivers to a process to report an event.
The interrupt signal stops the foreground process when the user presses the interrupt key.
A process may ignore most signals, but the kill signal always ends the process.
The shell passes every signal to the foreground process group of the terminal.`,
  `## Pipes

A pipe is a channel that carries the output of one process to the input of another.
The shell connects the commands of a pipeline with pipes, so the commands run at once.
A pipeline passes data from one process to the next without temporary files.
A filter is a program that reads its input, changes it, and writes the result to its output.`,
];
const chapter = {
  title: "Signals",
  content: `# Signals\n\n${SECTIONS[1]}`,
  key_concepts: ["process", "kernel", "signal", "shell"],
  sources: SECTIONS.map((text, i) => ({ text, filename: "unix.md", page: i + 1 })),
};

test("an exam's multiple choice asks the other kinds the chapter offers before its blanks", () => {
  const kinds = (count: number) =>
    extractiveExamQuestions({ chapter, count, types: ["mcq"] }).map((q) => promptKind(q.prompt));
  expect(kinds(2)).toEqual(["statement", "statement"]);
  // Blanks still fill an exam the other kinds cannot.
  expect(kinds(4).filter((k) => k === "blank")).toHaveLength(2);
});
