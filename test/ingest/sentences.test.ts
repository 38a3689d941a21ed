/**
 * Sentences as exact pieces of their text: the splitter (sbd) drops a dot where it wrongly finds a
 * boundary ("for .docx", "add.c"), and chunks, chapters and answers built from its output read
 * "for docx parsing", "emcc -O3 add c".
 */
import { describe, expect, test } from "bun:test";
import { markdownToBlocks } from "../../src/ingest/document.ts";
import { splitSentences } from "../../src/ingest/sentences.ts";
import { chunkDocument } from "../../src/retrieval/chunk.ts";

describe("sentences", () => {
  test("a boundary inside a word is none, and the pieces joined are the text", () => {
    const text =
      "Failing that would limit its scope. Here is a random table for .docx parsing test purposes: We'd build this with emcc -O3 add.c -o add.js which emits add.wasm. Dr. Smith ran it. Then it stopped.";
    const pieces = splitSentences(text);
    expect(pieces).toEqual([
      "Failing that would limit its scope.",
      "Here is a random table for .docx parsing test purposes: We'd build this with emcc -O3 add.c -o add.js which emits add.wasm.",
      "Dr. Smith ran it.",
      "Then it stopped.",
    ]);
    expect(pieces.join(" ")).toBe(text);
    expect(splitSentences("one\ntwo lines", { newlines: true })).toEqual(["one", "two lines"]);
  });

  test("a chunk's overlap with the one before it is the document's own text", () => {
    const prose = Array.from(
      { length: 40 },
      (_, i) => `Sentence ${i + 1} names the file add.c and the format .docx in plain words about the build.`,
    ).join(" ");
    const chunks = chunkDocument({ blocks: markdownToBlocks(`# Build\n\n${prose}`) });
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.text).not.toMatch(/\badd c\b|for docx|format docx/);
      expect(prose).toContain(c.text.split(/(?<=\.)\s(?=Sentence)/)[0]!);
    }
  });
});
