import { describe, expect, test } from "bun:test";
import { splitClauses, splitSentences } from "../../src/podcasts/tts/text.ts";

describe("splitting turn text", () => {
  test("clauses end at punctuation followed by a space, keeping which punctuation it was", () => {
    expect(splitClauses("Hi, there. Ready? Go: now; fine! tail")).toEqual([
      { text: "Hi", end: "," },
      { text: "there", end: "." },
      { text: "Ready", end: "?" },
      { text: "Go", end: ":" },
      { text: "now", end: ";" },
      { text: "fine", end: "!" },
      { text: "tail", end: "" },
    ]);
  });

  test("numbers, abbreviations and inner dots do not end a sentence", () => {
    expect(splitSentences("Pi is 3.14 roughly. Dr. Smith agrees, e.g. in class. Done")).toEqual([
      "Pi is 3.14 roughly.",
      "Dr. Smith agrees, e.g. in class.",
      "Done",
    ]);
  });
});
