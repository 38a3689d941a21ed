/**
 * How the built-in engine's exam is chosen from the pool its chapters supply (#29): a manual's
 * definitional sentences give many fill-in-the-blank questions, and an exam of mostly blanks is
 * what a teacher would not set; the quizzes keep them to 40%, the exam takes them last. And the
 * item check that a term's quoted description is not a condition cut from its sentence.
 */
import { expect, test } from "bun:test";
import { promptProblem, statementProblem } from "../../src/llm/artefacts/item-checks.ts";
import type { ExamQuestion, ExamQuestionType } from "../../src/llm/artefacts.ts";
import { chooseFrom } from "../../src/materials/exam-builder.ts";

const mcq = (prompt: string): ExamQuestion => ({
  type: "mcq",
  prompt,
  choices: ["a heap", "a stack", "a queue", "a tree"],
  answer: 0,
  explanation: "The course says so.",
});
const shortAnswer = (n: number): ExamQuestion => ({
  type: "short_answer",
  prompt: `Explain why structure ${n} keeps its order.`,
  answer: "Each step preserves the order.",
  rubric: ["The structure keeps its order because each step preserves it."],
});

/** A chapter's pool as the engine builds it: its blanks first, then other kinds. */
function chapterPool(chapter: number): Map<ExamQuestionType, ExamQuestion[]> {
  const blanks = Array.from({ length: 6 }, (_, i) =>
    mcq(`Complete the statement: A _____ keeps item ${chapter}-${i} at its root.`),
  );
  const others = Array.from({ length: 6 }, (_, i) =>
    mcq(`Which term does the course describe as “a structure ${chapter}-${i} that keeps its order”?`),
  );
  return new Map<ExamQuestionType, ExamQuestion[]>([
    ["mcq", [...blanks, ...others]],
    ["short_answer", Array.from({ length: 4 }, (_, i) => shortAnswer(chapter * 10 + i))],
    ["worked_problem", []],
  ]);
}

const chapters = [0, 1].map((i) => ({ title: `Chapter ${i}`, content: "", key_concepts: [] }));

test("an exam takes fill-in-the-blank questions only when its chapter has no other multiple-choice question left", () => {
  const chosen = chooseFrom([chapterPool(0), chapterPool(1)], { size: 10, chapters, quantitative: () => false });
  expect(chosen).toHaveLength(10);
  expect(chosen.filter((q) => q.type === "mcq" && q.prompt.startsWith("Complete the statement")).length).toBe(0);
});

test("a chapter with nothing but blanks left still fills its share with them", () => {
  const onlyBlanks = chapterPool(0);
  onlyBlanks.set("mcq", onlyBlanks.get("mcq")!.slice(0, 6));
  const chosen = chooseFrom([onlyBlanks], { size: 10, chapters: chapters.slice(0, 1), quantitative: () => false });
  expect(chosen).toHaveLength(10);
  expect(chosen.filter((q) => q.type === "mcq").length).toBe(6);
});

test("a question quoting a condition cut from its sentence is refused; a rubric point stating the whole condition is kept", () => {
  expect(
    promptProblem(
      "Which term does the course describe as “If a Hamiltonian path begins and ends at the same node, it”?",
    ),
  ).toBe("quotes a sentence cut short");
  expect(
    statementProblem("If a Hamiltonian path begins and ends at the same node, it is a Hamiltonian circuit."),
  ).toBeNull();
});
