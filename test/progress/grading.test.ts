/** Grading without a server: multiple choice exactly, free text against a rubric with partial credit. */
import { describe, expect, test } from "bun:test";
import type { ExamQuestion } from "../../src/llm/artefacts.ts";
import { builtinGrader } from "../../src/progress/graders.ts";
import { gradeAnswers } from "../../src/progress/grading.ts";
import { markAgainstRubric } from "../../src/progress/rubric-coverage.ts";

const marks = (question: string, rubric: string[], answer: string) =>
  markAgainstRubric(question, rubric, answer).points.map((p) => p.met);

describe("multiple choice is exact", () => {
  const q: ExamQuestion = {
    type: "mcq",
    prompt: "Which organelle holds chlorophyll?",
    choices: ["Nucleus", "Chloroplast", "Ribosome"],
    answer: 1,
    explanation: "Chloroplasts hold chlorophyll.",
  };
  test("only the right index scores; a blank scores nothing", async () => {
    const graded = await Promise.all([[1], [0], [2], [null]].map((a) => gradeAnswers([q], a, builtinGrader)));
    expect(graded.map((g) => [g.score, g.results[0]!.correct])).toEqual([
      [1, true],
      [0, false],
      [0, false],
      [0, false],
    ]);
    expect(graded[1]!.results[0]).toMatchObject({
      expected: 1,
      expected_text: "Chloroplast",
      explanation: "Chloroplasts hold chlorophyll.",
    });
  });
});

describe("short answers: rubric coverage with partial credit", () => {
  const question = "What do the light reactions of photosynthesis produce?";
  const rubric = ["The light reactions split water and release oxygen", "They produce ATP and NADPH"];

  test("each point met, partly met or missed; the question's credit is the mean of its points", async () => {
    expect(marks(question, rubric, "Water is split, oxygen is released, and ATP and NADPH are produced.")).toEqual([
      "yes",
      "yes",
    ]);
    expect(marks(question, rubric, "They make ATP and NADPH.")).toEqual(["no", "yes"]);
    expect(marks(question, rubric, "They make ATP.")).toEqual(["no", "partly"]);
    const q: ExamQuestion = { type: "short_answer", prompt: question, answer: "Oxygen, ATP and NADPH.", rubric };
    const graded = await gradeAnswers(
      [q, q, q],
      ["They make ATP.", "They make ATP and NADPH.", "Splitting water releases oxygen; ATP and NADPH come out."],
      builtinGrader,
    );
    expect(graded.results.map((r) => [r.score, r.correct])).toEqual([
      [0.25, false],
      [0.5, true],
      [1, true],
    ]);
    expect(graded.score).toBe(1.75);
    expect(graded.results[0]!.rubric!.map((p) => p.credit)).toEqual([0, 0.5]);
    expect(graded.results[0]!.explanation).toContain(
      "Still to cover: The light reactions split water and release oxygen",
    );
  });

  test("words match by stem: splitting/split, released/release, diffuses/diffusion", () => {
    expect(
      marks(
        "How do molecules cross?",
        ["Diffusion moves molecules down the concentration gradient"],
        "The molecules diffuse down a concentration gradient.",
      ),
    ).toEqual(["yes"]);
    expect(marks(question, rubric, "Splitting of water, releasing oxygen")[0]).toBe("yes");
  });

  test("repeating the question earns nothing: terms it names are not evidence", () => {
    expect(
      marks(
        "What happens to a red blood cell placed in pure water?",
        ["Osmosis moves water into the cell", "The cell swells and may burst"],
        "A red blood cell is placed in pure water.",
      ),
    ).toEqual(["no", "no"]);
  });

  test("an answer that says the opposite of a negative point is at most partly met", () => {
    const r = ["Diffusion requires no energy from the cell"];
    const asked = "How does diffusion differ from active transport?";
    expect(marks(asked, r, "Diffusion requires energy from the cell.")).toEqual(["partly"]);
    expect(marks(asked, r, "It never requires energy from the cell.")).toEqual(["yes"]);
    // A negation in another clause says nothing about this point.
    expect(
      marks(
        "What does diffusion do?",
        ["Particles move toward lower concentration"],
        "Particles move toward lower concentration, and no energy is needed.",
      ),
    ).toEqual(["yes"]);
    // The clause that says most of the point decides: a negative aside sharing one of its words does not.
    expect(
      marks(
        "What is diffusion?",
        ["Particles move down the concentration gradient"],
        "Particles move down the concentration gradient. It is not a pump for particles.",
      ),
    ).toEqual(["yes"]);
    expect(
      marks("What is diffusion?", r, "It is the movement of particles. It requires no energy from the cell."),
    ).toEqual(["yes"]);
  });

  test("a blank answer meets no point", async () => {
    const q: ExamQuestion = { type: "short_answer", prompt: question, answer: "ATP", rubric };
    const graded = await gradeAnswers([q, q], ["   ", null], builtinGrader);
    expect(graded.results.map((r) => r.rubric!.map((p) => p.met))).toEqual([
      ["no", "no"],
      ["no", "no"],
    ]);
    expect(graded.score).toBe(0);
  });
});

describe("worked problems", () => {
  const q: ExamQuestion = {
    type: "worked_problem",
    prompt: "How many ways are there to choose 2 of 5 objects?",
    steps: ["Use the combination formula C(n, k) = n! / (k! (n - k)!)", "Substitute n = 5 and k = 2: 120 / (2 × 6)"],
    answer: "10",
  };
  test("marked on its steps and its final answer", async () => {
    const [right, bare, wrong] = (
      await gradeAnswers(
        [q, q, q],
        ["By the combination formula, C(5, 2) = 120 / (2 × 6) = 10.", "10", "20"],
        builtinGrader,
      )
    ).results;
    expect(right!.rubric!.map((p) => p.met)).toEqual(["yes", "yes", "yes"]);
    expect(bare!.rubric!.map((p) => p.met)).toEqual(["no", "no", "yes"]);
    expect(wrong!.rubric!.at(-1)!.met).toBe("no");
    expect(right!.explanation).toContain("Worked solution:");
  });
});
