/** A built-in chapter condensed from one section: what the condensing tests read. */
import { condensedChapter } from "../../src/llm/extractive/condense.ts";

export const sectionChapter = (title: string, text: string): string =>
  condensedChapter({
    chapterTitle: title,
    objectives: [],
    passages: [{ id: "p1", text, headingPath: [title] }],
    sectionDepth: 0,
  }).content;
