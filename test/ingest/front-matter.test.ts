/**
 * Front and back matter by what the pages are (#28): pages built here show each mechanism alone
 * (an index with no heading, a licence appended after the body, a slide deck with no front
 * matter). The same on real books of the corpus's dev half: dev-books.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { type Block, block } from "../../src/ingest/document.ts";
import { resultOf } from "../../src/ingest/result.ts";
import { headingRole } from "../../src/ingest/roles.ts";

const paged = (blocks: Block[]) =>
  resultOf(blocks, { title: null, mimeType: "application/pdf", pages: 20 }, "page").blocks;
const p = (text: string, page: number) => block("paragraph", text, { page });
const h = (text: string, page: number) => block("heading", text, { page }, { level: 1 });

/** A page of prose about one topic: four sentences of about twenty words each. */
const prosePage = (topic: string, page: number) =>
  p(
    Array.from(
      { length: 4 },
      (_, i) =>
        `The ${topic} is discussed in part ${i + 1} of this page with enough ordinary words to make a real paragraph that readers would study.`,
    ).join(" "),
    page,
  );

describe("headings that name their role", () => {
  test.each([
    ["Dedication", "title_page"],
    ["Declaration", "boilerplate"],
    ["Colophon", "boilerplate"],
    ["Copyright and License", "boilerplate"],
    ["Authors' Addresses", "boilerplate"],
    ["Author’s Address", "boilerplate"],
    ["Appendix D—References", "references"],
    ["Appendix D Indexes", "index"],
    // Whole titles only: an essay or a chapter about these things is text to teach.
    ["19 Copyright and Globalization in the Age of Computer Networks", null],
    ["Licensing models for open data", null],
    ["Authorship and attribution", null],
  ])("%s → %s", (heading, role) => {
    expect(headingRole(heading)).toBe(role as ReturnType<typeof headingRole>);
  });
});

describe("pages built to show one mechanism", () => {
  test("an index with no heading is the index: alphabetised short entries with page numbers", () => {
    const entries = ["algorithm, 3, 7", "binary search, 4", "graph, 5–6", "heap, 2", "queue, 8, 9", "recursion, 3"];
    const more = ["set, 4", "sorting, 2, 6", "stack, 8", "tree, 5, 7", "union-find, 9", "vertex, 5"];
    const blocks = paged([
      ...Array.from({ length: 9 }, (_, i) => prosePage(`topic ${i + 1}`, i + 1)),
      ...[...entries, ...more].map((e) => p(e, 10)),
    ]);
    expect(blocks.filter((b) => b.page === 10).map((b) => b.role)).toEqual(Array(12).fill("index"));
    expect(blocks.filter((b) => b.page! < 10 && b.role !== "body")).toEqual([]);
  });

  test("lines with page numbers in no alphabetical order are not an index", () => {
    const lines = ["zinc, 3", "copper, 7", "tin, 2", "alloy, 9", "lead, 1", "bronze, 4", "nickel, 8", "iron, 5"];
    const blocks = paged([
      ...Array.from({ length: 9 }, (_, i) => prosePage(`metal ${i + 1}`, i + 1)),
      ...lines.map((l) => p(l, 10)),
    ]);
    expect(blocks.filter((b) => b.page === 10 && b.role !== "body")).toEqual([]);
  });

  const LICENCE = [
    "Example Public License, Version 1, March 2001. Copyright (C) 2001 Example Foundation, Inc. Everyone is permitted to copy and distribute verbatim copies of this license document, but changing it is not allowed.",
    "1. The licensor hereby grants the licensee a royalty-free licence to copy the work, provided that the licensee shall keep this notice intact on every copy it distributes.",
    "2. The licensee shall not sublicense the work; any attempt to sublicense it is void and shall terminate the rights granted herein.",
    "3. The work is provided without warranty of any kind, including the implied warranties of merchantability and fitness for a particular purpose.",
    "4. In no event shall the licensor be liable for any damages arising out of the use of the work, and the licensee waives any claim thereof.",
    "5. Notwithstanding the above, the licensee may distribute the work under the terms and conditions of this licence, provided that each copy carries it.",
  ];

  test("a licence appended after the body is boilerplate, while an essay about licences is taught", () => {
    const essay = (page: number) =>
      p(
        "Free software licences let every user copy, study and share a program, and the copyright holder uses the licence to keep those freedoms for the users who come later. An essay that explains why that matters is part of the book.",
        page,
      );
    const blocks = paged([
      ...Array.from({ length: 14 }, (_, i) => (i % 2 ? essay(i + 1) : prosePage(`idea ${i + 1}`, i + 1))),
      h("Example Public License", 15),
      ...LICENCE.flatMap((t) => [p(t, 15), p(t.replace(/^\d\./, "6."), 16)]),
    ]);
    expect(blocks.filter((b) => b.page! >= 15 && b.role !== "boilerplate").map((b) => b.text)).toEqual([]);
    expect(blocks.filter((b) => b.page! < 15 && b.role !== "body").map((b) => b.text)).toEqual([]);
  });

  test("a slide deck of short pages has no front matter past its first slide (a cover by its own rule)", () => {
    const blocks = paged(
      Array.from({ length: 8 }, (_, i) => [
        h(`Slide title ${i + 1}`, i + 1),
        p(`First point of slide ${i + 1}`, i + 1),
        p(`Second point of slide ${i + 1}`, i + 1),
      ]).flat(),
    );
    expect(blocks.filter((b) => b.page! > 1 && b.role !== "body")).toEqual([]);
  });
});
