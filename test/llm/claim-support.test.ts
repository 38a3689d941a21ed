/**
 * The grounding check a model's sentences go through (src/llm/claim-support.ts): a restatement in
 * other words is supported; a denial, a changed figure, an opposite or a sentence from elsewhere
 * is not, however many of the passage's words it shares.
 */
import { describe, expect, test } from "bun:test";
import { claimSupport, preparePassages } from "../../src/llm/claim-support.ts";

const TIDES = preparePassages([
  "Tides rise and fall twice a day because the Moon's gravity pulls the oceans toward it. " +
    "The Sun adds a smaller pull of its own, about half as strong as the Moon's.",
  "Spring tides come when the Sun and the Moon line up, and their range is the largest of the month.",
]);

const verdict = (claim: string) => claimSupport(claim, TIDES);

describe("a sentence the passages say in other words", () => {
  test("synonyms and reordered clauses are supported", () => {
    expect(
      verdict("Because the Moon's gravity draws the oceans toward it, tides rise and fall twice each day."),
    ).toMatchObject({ supported: true, contradiction: null });
  });

  test("a sentence drawing on two neighbouring sentences is supported", () => {
    expect(verdict("The Moon's gravity pulls the oceans, and the Sun adds a smaller pull.").supported).toBe(true);
  });
});

describe("a sentence the passages do not say", () => {
  test("a denial of what they say is a negation", () => {
    expect(verdict("Tides do not rise and fall twice a day.")).toMatchObject({
      supported: false,
      contradiction: "negation",
    });
  });

  test("what they deny both ways is agreement, not contradiction", () => {
    const p = preparePassages(["The oxygen released by photosynthesis comes from water, not from carbon dioxide."]);
    expect(
      claimSupport("Photosynthesis releases oxygen from water and not from carbon dioxide.", p).contradiction,
    ).toBeNull();
  });

  test("a figure they do not hold is a number mismatch; one rounded from theirs is not", () => {
    expect(verdict("Tides rise and fall three times a day, 3 in all.").contradiction).toBe("number");
    const p = preparePassages(["Of the samples, 76.3% showed the marker."]);
    expect(claimSupport("About 76% of the samples showed the marker.", p).contradiction).toBeNull();
  });

  test("a word replaced by its WordNet antonym is a contradiction", () => {
    expect(verdict("The Sun adds a larger pull of its own than the Moon.")).toMatchObject({
      supported: false,
      contradiction: "antonym",
    });
  });

  test("a sentence from elsewhere sharing the subject's name is unsupported", () => {
    expect(
      verdict("Tides were first recorded by merchants who funded a northern expedition in winter.").supported,
    ).toBe(false);
  });
});
