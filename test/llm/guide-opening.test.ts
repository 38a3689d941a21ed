/**
 * The study guide opens on what the document says it is (#29, found reading DEV's PARI/GP tutorial:
 * its first sentence "This booklet is a guided tour and a tutorial to the gp calculator." was refused
 * as leaning on a sentence before it, where none is, and the guide opened on a pointer to the manual).
 */
import { expect, test } from "bun:test";
import { extractiveStudyGuide } from "../../src/llm/extractive/study-guide.ts";

const chapter = (title: string, content: string, key_concepts: string[]) => ({ title, content, key_concepts });
const overviewOf = (chapters: ReturnType<typeof chapter>[]) => {
  const guide = extractiveStudyGuide({ courseTitle: "A gp tutorial", chapters });
  const about = guide.sections.find((s) => s.heading === "What this course is about");
  return about && "body" in about ? about.body : "";
};

test("the course's first sentence may say what 'this' document is; a pointer to another is no overview", () => {
  const about = overviewOf([
    chapter(
      "Greetings",
      [
        "This booklet is a guided tour and a tutorial to the gp calculator.",
        "Many examples will be given, but each time a new function is used, the reader should look at the appropriate section in the User's Manual for detailed explanations.",
        "The calculator reads an expression at its prompt and prints the value of the expression.",
        "A rational number is printed as an exact fraction unless the input holds an imprecise real number.",
        "The precision of real numbers is counted in significant decimal digits.",
      ].join(" "),
      ["calculator", "rational number", "precision"],
    ),
    chapter(
      "Polynomials",
      "A polynomial is entered with its variable and its coefficients. The calculator factors a polynomial over the rationals.",
      ["polynomial"],
    ),
  ]);
  expect(about.startsWith("This booklet is a guided tour and a tutorial to the gp calculator.")).toBe(true);
  expect(about).not.toContain("User's Manual");
});

test("a connective still dangles at the course's start, and a 'this' later still points back", () => {
  const about = overviewOf([
    chapter(
      "Processes",
      [
        "Note, however, the kernel schedules every process on the processors of the machine.",
        "This flag tells the kernel to run the process in the background.",
        "A process is a running instance of a program with its own memory and identifier.",
      ].join(" "),
      ["process", "kernel"],
    ),
  ]);
  expect(about.startsWith("A process is a running instance")).toBe(true);
});
