/**
 * A page given mostly to lists of people's names (#28): a contributors or thanks page is front
 * matter however much prose introduces the names, and the book's text starts after it. lshort
 * read its contributors page as its first page of text and taught the page's closing sentence.
 */
import { describe, expect, test } from "bun:test";
import { type Block, block } from "../../src/ingest/document.ts";
import { resultOf } from "../../src/ingest/result.ts";

const paged = (blocks: Block[]) =>
  resultOf(blocks, { title: null, mimeType: "application/pdf", pages: 16 }, "page").blocks;
const p = (text: string, page: number) => block("paragraph", text, { page });
const h = (text: string, page: number) => block("heading", text, { page }, { level: 1 });

const prosePage = (topic: string, page: number) =>
  p(
    Array.from(
      { length: 4 },
      (_, i) =>
        `The ${topic} is discussed in part ${i + 1} of this page with enough ordinary words to make a real paragraph that readers would study.`,
    ).join(" "),
    page,
  );

const THANKS =
  "The following people helped with corrections, suggestions and material to improve this guide. They put in a big effort to help me get the text into its present shape, and I would like to sincerely thank all of them. If you ever find a word that is spelled correctly, it must have been one of them dropping me a line.";
const NAMES = [
  "Eric Abrahamsen, Lenimar Nunes de Andrade, Rosemary Bailey, Barbara Beeton, Marc Bevand, Connor Blakey,",
  "Pietro Braione, Friedemann Brauer, Jan Busa, David Carlisle, Neil Carter, Carl Cerecke, Mike Chapman,",
  "Christopher Chin, Wim van Dam, Benjamin Deschwanden, Jan Dittberner, Michael John Downes, Hans Ehrbar,",
  "Johan Falk, Frank Fischli, Daniel Flipo, David Frey, Erik Frisk, Hans Fugal, Robert Funnell, Greg Gamble,",
  "Neil Hammond, Rasmus Borup Hansen, Joseph Hilferty, Martien Hulsen, Werner Icking, Eric Jacoboni,",
  "Alan Jeffrey, Martin Jenkins, Byron Jones, Nils Kanning, Christian Kern, Alain Kessi, Axel Kielhorn,",
];

describe("a contributors page before the text", () => {
  const blocks = paged([
    p("A Short Guide to Typesetting", 1),
    h("Thank you", 2),
    p("Much of this guide comes from an earlier one written by Hubert Partl and Irene Hyna.", 2),
    p(THANKS, 3),
    ...NAMES.map((n) => p(n, 3)),
    h("Preface", 4),
    prosePage("preface", 4),
    ...Array.from({ length: 8 }, (_, i) => prosePage(`chapter ${i + 1}`, i + 5)),
  ]);

  test("the page of names, and the prose introducing them, are acknowledgements", () => {
    expect(blocks.filter((b) => b.page === 3).map((b) => b.role)).toEqual(
      Array(NAMES.length + 1).fill("acknowledgements"),
    );
  });

  test("the preface after it and the chapters are taught", () => {
    expect(blocks.filter((b) => b.page! >= 4 && b.role !== "body")).toEqual([]);
  });
});

describe("names within the text", () => {
  test("a page of prose naming a few people in one line is taught", () => {
    const blocks = paged([
      ...Array.from({ length: 9 }, (_, i) => prosePage(`history ${i + 1}`, i + 1)),
      prosePage("the committee", 10),
      p("Grace Hopper, John Backus, Jean Sammet, Alan Perlis", 10),
      ...Array.from({ length: 5 }, (_, i) => prosePage(`method ${i + 1}`, i + 11)),
    ]);
    expect(blocks.filter((b) => b.page === 10 && b.role !== "body")).toEqual([]);
  });
});
