/**
 * A condensed chapter keeps what its sentences introduce: a displayed formula after "this would be
 * written", a code block after "as follows:", a table after "the following table:"; each whole,
 * and a sentence that announces what is missing is left out.
 */
import { expect, test } from "bun:test";
import { condensedChapter } from "../../src/llm/extractive/condense.ts";
import { sectionChapter } from "./section-chapter.ts";

const chapter = (text: string) => sectionChapter("Models", text);

test("a formula set over several lines is one formula, kept after the sentence that runs into it", () => {
  const content = chapter(
    [
      "The template for a statistical model is a linear regression model with independent errors",
      "yi =",
      "p∑",
      "j=0",
      "βj xij + ei",
      "Such a model is fitted by least squares, which picks the coefficients that make the residuals smallest.",
      "In matrix terms the same model would be written",
      "y = Xβ + e",
      "where y is the response vector and X is the model matrix of the determining variables.",
    ].join("\n\n"),
  );
  expect(content).toContain(
    "The template for a statistical model is a linear regression model with independent errors\n\nyi = p∑ j=0 βj xij + ei",
  );
  expect(content).toContain(
    "In matrix terms the same model would be written\n\ny = Xβ + e\n\nwhere y is the response vector and X is the model matrix of the determining variables.",
  );
});

test("a table stays a table after the sentence that introduces it; code is never split", () => {
  const content = chapter(
    [
      "Each family of models has a link function that relates the mean to the linear predictor, as the following table shows:",
      "Family | Link\ngaussian | identity\nbinomial | logit",
      "A model of counts is fitted in the same way, with its own family, as follows:",
      "```\n> fit <- glm(y ~ x, family = poisson)\n\n> summary(fit)\n```",
      "The options of the fitting function are described in what follows:",
    ].join("\n\n"),
  );
  expect(content).toContain("| Family | Link |\n| --- | --- |\n| gaussian | identity |\n| binomial | logit |");
  expect(content).toContain("as follows:\n\n```\n> fit <- glm(y ~ x, family = poisson)\n\n> summary(fit)\n```");
  expect(content).not.toContain("described in what follows");
});

test("a list or a table the chunker cut at a passage's end goes on in the next passage: kept whole after its sentence", () => {
  const section = ["Packaging"];
  const { content } = condensedChapter({
    chapterTitle: "Packaging",
    objectives: [],
    passages: [
      {
        id: "p1",
        headingPath: section,
        text: [
          "A packaging system records how every file of a program was built, so that others can rebuild it.",
          "The archive's tools were written to meet several technical goals at once:",
          "- builds across many processor architectures",
        ].join("\n\n"),
      },
      {
        id: "p2",
        headingPath: section,
        text: [
          "- builds that give the same bytes when repeated\n- clean builds under declared dependencies\n- smooth transitions between library versions",
          "Each goal is checked by a service that rebuilds the archive and reports failures to the maintainers.",
          "The following table lists the services:",
          "Service | Checks\nbuildd | architectures",
        ].join("\n\n"),
      },
      {
        id: "p3",
        headingPath: section,
        text: "reproducible | repeated builds\nci | dependencies\n\nA maintainer reads the reports before each upload.",
      },
    ],
    sectionDepth: 0,
  });
  expect(content).toContain(
    "several technical goals at once:\n\n- builds across many processor architectures\n- builds that give the same bytes when repeated\n- clean builds under declared dependencies\n- smooth transitions between library versions",
  );
  expect(content).toContain(
    "| Service | Checks |\n| --- | --- |\n| buildd | architectures |\n| reproducible | repeated builds |\n| ci | dependencies |",
  );
});
