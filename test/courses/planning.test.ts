/** The pure rules of generation: progress, how chapters are shared among sources, organization. */
import { describe, expect, test } from "bun:test";
import { cleanTitle, splitToCount } from "../../src/courses/chapter-groups.ts";
import { progressPct } from "../../src/courses/progress.ts";
import { wordsOf } from "../../src/courses/sections.ts";
import { resolveOrganization, sequentialGroups } from "../../src/courses/source-plan.ts";
import { relatedness, sharedThemes, termProfile } from "../../src/courses/themes.ts";
import { findRepeats } from "../../src/documents/repeated-sections.ts";
import { CALVIN_CYCLE, CASTLES, LIGHT_REACTIONS } from "./sources.ts";

describe("progress rules", () => {
  test("ratio of committed chapters, capped at 99 until the course is committed", () => {
    expect(progressPct("generating", { expected: 4, completed: 0 })).toBe(0);
    expect(progressPct("generating", { expected: 4, completed: 1 })).toBe(25);
    expect(progressPct("generating", { expected: 3, completed: 2 })).toBe(66);
    expect(progressPct("generating", { expected: 4, completed: 4 })).toBe(99);
    expect(progressPct("failed", { expected: 4, completed: 4 })).toBe(99);
    expect(progressPct("completed", { expected: 4, completed: 4 })).toBe(100);
  });
});

describe("sequential sections", () => {
  test("every source gets a chapter, the rest go by size, the total is exact", () => {
    const groups = sequentialGroups([1000, 3000, 1000], 7);
    expect(groups.map((g) => g.sources)).toEqual([[0], [1], [2]]);
    expect(groups.reduce((a, g) => a + g.chapters, 0)).toBe(7);
    expect(groups[1]!.chapters).toBeGreaterThan(groups[0]!.chapters);
    expect(Math.min(...groups.map((g) => g.chapters))).toBeGreaterThanOrEqual(1);
  });

  test("fewer chapters than sources: consecutive sources share a chapter, order kept", () => {
    const groups = sequentialGroups([5, 5, 5, 5, 5], 2);
    expect(groups).toEqual([
      { sources: [0, 1], chapters: 1 },
      { sources: [2, 3, 4], chapters: 1 },
    ]);
    for (let n = 1; n <= 20; n++) {
      const g = sequentialGroups([10, 200, 30, 4000, 5, 60], n);
      expect(g.reduce((a, x) => a + x.chapters, 0)).toBe(n);
      expect(g.flatMap((x) => x.sources)).toEqual([0, 1, 2, 3, 4, 5]);
    }
  });
});

describe("organization", () => {
  const [light, calvin, castles] = [LIGHT_REACTIONS, CALVIN_CYCLE, CASTLES].map(termProfile) as [any, any, any];

  test("auto: related sources are bridged by theme, unrelated ones kept in sequence", () => {
    expect(relatedness([light, calvin])).toBeGreaterThan(0.3);
    expect(relatedness([light, castles])).toBeLessThan(0.1);
    expect(resolveOrganization("auto", [light, calvin]).organization).toBe("thematic_bridge");
    expect(resolveOrganization("auto", [light, castles]).organization).toBe("sequential_sections");
    expect(resolveOrganization("auto", [light]).organization).toBe("sequential_sections");
  });

  test("an explicit organization is kept whatever the sources", () => {
    expect(resolveOrganization("thematic_bridge", [light, castles]).organization).toBe("thematic_bridge");
    expect(resolveOrganization("sequential_sections", [light, calvin]).organization).toBe("sequential_sections");
  });

  test("shared themes come from both sources, never from one alone", () => {
    const themes = sharedThemes([light, calvin], 6);
    expect(themes.length).toBe(6);
    for (const t of themes) expect(t.sources).toEqual([0, 1]);
    expect(themes.map((t) => t.word)).toContain("chloroplast");
    expect(sharedThemes([light, castles], 6).every((t) => t.sources.length === 2)).toBe(true);
  });
});

describe("sections split into chapters", () => {
  const para = (text: string, headingPath: string[]) => ({
    text,
    documentId: "d",
    filename: "deck.pptx",
    chunkId: "c",
    page: null,
    timestamp: null,
    headingPath,
    role: "body" as const,
  });
  const long = (topic: string) =>
    `${topic} agents converse with each other to accomplish tasks, combine models, tools and human inputs, and can be programmed in natural language or in code for many applications in mathematics, coding, question answering, operations research and online decision-making. ${topic} workflows are written once and reused across many such tasks.`;

  test("a section is never cut into a piece too short to be a chapter: a title slide's one line stays with what follows", () => {
    const paragraphs = [
      para("2cdda5c8-e50e-4db4-b5f0-9722a649f455", ["AutoGen"]),
      para(long("AutoGen"), ["AutoGen"]),
      para(long("Conversable"), ["AutoGen"]),
    ];
    const sections = [
      { documentId: "d", title: "AutoGen", from: 0, to: 3, depth: 0, words: wordsOf(paragraphs, 0, 3) },
    ];
    const split = splitToCount(sections, paragraphs, 4);
    expect(split.map((s) => [s.from, s.to])).toEqual([
      [0, 2],
      [2, 3],
    ]);
    expect(split.map((s) => s.title)).toEqual(["AutoGen (part 1 of 2)", "AutoGen (part 2 of 2)"]);
  });
});

describe("text a document repeats", () => {
  const unit = (id: string, text: string) => ({ id, text, headingPath: [id], page: null });
  const intro =
    "The committee reviewed every request for access to the archive and recorded its decision in the register kept at the front desk.";
  const appeal =
    "A member of staff whose request was refused may appeal within thirty days, and the appeal is heard by two members who did not take the first decision.";
  const fees =
    "Copies of records are made at cost, and the fee schedule published each January lists the price of each kind of copy the archive makes.";

  test("a chunk is a repeat when nearly all of it came earlier, not when it quotes a sentence", () => {
    const r = findRepeats([
      unit("a", `${intro} ${appeal}`),
      unit("b", `${appeal} ${fees}`),
      unit("c", `${intro} ${appeal}`),
    ]);
    expect(r.chunk_ids).toEqual(["c"]);
    expect(r.runs).toEqual([
      {
        heading_path: ["c"],
        page: null,
        last_page: null,
        words: r.repeated_words,
        first_seen: { heading_path: ["a"], page: null },
      },
    ]);
  });
});

test("a chapter title is its heading without numbering or a run-in heading's closing full stop", () => {
  // As TeX's run-in styles print them (DEV: the PARI/GP tutorial, "1. Greetings!.", "12.1. Elements.").
  expect(cleanTitle("1. Greetings!.")).toBe("Greetings!");
  expect(cleanTitle("12.1. Elements.")).toBe("Elements");
  expect(cleanTitle("12.5. Galois Theory over Q.")).toBe("Galois Theory over Q");
  expect(cleanTitle("3.2 Sorting")).toBe("Sorting");
  // An abbreviation's stop and an ellipsis stay.
  expect(cleanTitle("Trade with the U.S.")).toBe("Trade with the U.S.");
  expect(cleanTitle("And then...")).toBe("And then...");
});
