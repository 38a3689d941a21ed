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
const roleOf = (blocks: Block[], start: string) => blocks.find((b) => b.text.startsWith(start))?.role;

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

/** Fourteen pages of a book of essays: pages of prose, every other one the page of an essay saying `essay`. */
const essayPages = (essay: string) =>
  Array.from({ length: 14 }, (_, i) => (i % 2 ? p(essay, i + 1) : prosePage(`idea ${i + 1}`, i + 1)));

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
    ["Errata", "boilerplate"],
    ["Copying conditions", "boilerplate"],
    ["Keywords", "title_page"],
    // Whole titles only: an essay or a chapter about these things is text to teach.
    ["19 Copyright and Globalization in the Age of Computer Networks", null],
    ["Licensing models for open data", null],
    ["Authorship and attribution", null],
  ])("%s → %s", (heading, role) => {
    expect(headingRole(heading)).toBe(role as ReturnType<typeof headingRole>);
  });
});

describe("pages built to show one mechanism", () => {
  test("a margin stamp inside an appendix keeps its boilerplate role; the appendix's text is appendix", () => {
    const stamp = {
      ...p("This publication is available free of charge from: https://doi.org/10.6028/x", 9),
      role: "boilerplate" as const,
    };
    const blocks = paged([
      h("1 Introduction", 1),
      prosePage("introduction", 1),
      h("APPENDIX B GLOSSARY", 9),
      prosePage("glossary", 9),
      stamp,
      prosePage("term", 10),
    ]);
    expect(roleOf(blocks, "The glossary is")).toBe("appendix");
    expect(roleOf(blocks, "The term is")).toBe("appendix");
    expect(roleOf(blocks, "This publication is available")).toBe("boilerplate");
  });

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

  test("contents entries are contents however long their leaders, set as code, wrapped or under a heading of their own at the back", () => {
    // As DEV's SBCL manual, GNU Prolog and GCL set them: a short title's leaders run past 160
    // characters, a title wraps onto lines before its leader line, a monospaced manual sets entries
    // as code, and a "Short Contents" closes the book.
    const leaders = (title: string, page: number) => `${title} ${". ".repeat(Math.max(4, 80 - title.length))}${page}`;
    const c = (text: string, page: number) => block("code", text, { page });
    // No "Contents" heading over them: the entries alone say what they are.
    const blocks = paged([
      p(leaders("4.2 Handling of Types", 19), 2),
      p(leaders("4.2.1 Declarations as Assertions", 19), 2),
      p("8.1.1 var/1, nonvar/1, atom/1, integer/1, float/1, number/1, atomic/1,", 2),
      c("compound/1, callable/1, ground/1, is list/1, list/1,", 2),
      p("(#==>)/2 - constraint imply, (#\\==>)/2 - constraint not imply,", 2),
      p("(#/\\)/2 - constraint AND, (#\\/\\)/2 - constraint NAND,", 2),
      p(leaders("partial list/1, list or partial list/1 - type testing", 55), 2),
      p(leaders("4.3 Compiler Policy", 21), 2),
      h("1 Introduction", 3),
      ...Array.from({ length: 9 }, (_, i) => prosePage(`topic ${i + 1}`, i + 3)),
      h("Short Contents", 12),
      c(leaders("1 Numbers", 1), 12),
      p(leaders("2 Sequences and Arrays and Hash Tables", 15), 12),
      c(`${leaders("13 Doc", 97)}\n${leaders("14 Type", 99)}`, 12),
    ]);
    expect(blocks.filter((b) => b.page === 2 || b.page === 12).filter((b) => b.role !== "toc")).toEqual([]);
    expect(blocks.filter((b) => b.page! > 2 && b.page! < 12 && b.role !== "body")).toEqual([]);
  });

  test("a chapter opening with its own short contents stays a chapter", () => {
    const leaders = (title: string, page: number) => `${title} ${". ".repeat(30)}${page}`;
    const blocks = paged([
      ...Array.from({ length: 4 }, (_, i) => prosePage(`topic ${i + 1}`, i + 1)),
      h("5 Graphs", 5),
      p(leaders("5.1 Paths", 5), 5),
      p(leaders("5.2 Trees", 6), 5),
      p(leaders("5.3 Cycles", 7), 5),
      prosePage("graph", 5),
      ...Array.from({ length: 4 }, (_, i) => prosePage(`more ${i + 1}`, i + 6)),
    ]);
    expect(roleOf(blocks, "5 Graphs")).toBe("body");
    expect(roleOf(blocks, "5.2 Trees")).toBe("toc");
  });

  test("a closing section of copyright notices is boilerplate; an essay on copyright with its own notice is taught", () => {
    // As DEV's Gmsh manual closes: "Appendix H Copyright and credits", sixteen dated notices in 1,540 words.
    const blocks = paged([
      ...essayPages(
        "The law of copyright gives an author control over copies of a work, and the essays in this book ask whether that control still serves readers when copying costs nothing. Copyright was once a rule for printers; now it reaches every reader who owns a computer.",
      ),
      p("Copyright © 2002 Free Software Foundation. Verbatim copying of this essay is permitted in any medium.", 14),
      h("Appendix H Copyright and credits", 15),
      block(
        "code",
        [
          "Gmsh is copyright (C) 1997-2021 Christophe Geuzaine and Jean-Francois Remacle.",
          "Code contributions to Gmsh have been provided by many people; see the source for the list.",
          "The TetGen/BR code is copyright (c) 2016 Hang Si, Weierstrass Institute. It is relicensed under the terms of LICENSE.txt.",
          "The GIF and PPM routines are based on code copyright (C) 1989, 1991, Jef Poskanzer. Permission to use, copy, modify, and distribute this software and its documentation for any purpose is hereby granted.",
          "Special thanks to the many users who reported bugs and suggested improvements over the years.",
        ].join("\n"),
        { page: 15 },
      ),
    ]);
    expect(blocks.filter((b) => b.page === 15 && b.role !== "boilerplate")).toEqual([]);
    expect(blocks.filter((b) => b.page! < 15 && b.role !== "body").map((b) => b.text)).toEqual([]);
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
    const blocks = paged([
      ...essayPages(
        "Free software licences let every user copy, study and share a program, and the copyright holder uses the licence to keep those freedoms for the users who come later. An essay that explains why that matters is part of the book.",
      ),
      h("Example Public License", 15),
      ...LICENCE.flatMap((t) => [p(t, 15), p(t.replace(/^\d\./, "6."), 16)]),
    ]);
    expect(blocks.filter((b) => b.page! >= 15 && b.role !== "boilerplate").map((b) => b.text)).toEqual([]);
    expect(blocks.filter((b) => b.page! < 15 && b.role !== "body").map((b) => b.text)).toEqual([]);
  });

  test("a front page stating only the book's licence is boilerplate, though it is called Abstract; an abstract of prose is taught", () => {
    // As DEV's Debian Reference gives its licence, alone on the page after its lists of tables.
    const book = (second: Block[]) =>
      paged([
        p("A Reference for Example Systems", 1),
        ...second,
        h("1 Tutorials", 3),
        ...Array.from({ length: 8 }, (_, i) => prosePage(`chapter ${i + 1}`, i + 3)),
      ]);
    const licence = book([
      p("Abstract", 2),
      p(
        "This book is free; you may redistribute it and/or modify it under the terms of the GNU General Public License of any version compliant to the Debian Free Software Guidelines (DFSG).",
        2,
      ),
    ]);
    expect(licence.filter((b) => b.page === 2).map((b) => b.role)).toEqual(["boilerplate", "boilerplate"]);
    const abstract = book([p("Abstract", 2), prosePage("abstract", 2)]);
    expect(roleOf(abstract, "The abstract is")).toBe("abstract");
  });

  test("keywords under their own heading are title matter; the unheaded summary after them and a manual's numbered Keywords section are taught", () => {
    const blocks = paged([
      p("A Report on Example Systems", 1),
      h("Abstract", 2),
      prosePage("abstract", 2),
      h("Keywords", 2),
      p("assessment; authorization; categorization; risk; monitoring", 2),
      p("Executive Summary", 3),
      prosePage("summary", 3),
      ...Array.from({ length: 6 }, (_, i) => prosePage(`chapter ${i + 1}`, i + 4)),
      h("3 Keywords", 10),
      p("The language reserves a few words, such as if and while, which no variable may be named after.", 10),
    ]);
    expect(roleOf(blocks, "assessment; authorization")).toBe("title_page");
    expect(roleOf(blocks, "The summary is discussed")).toBe("body");
    expect(roleOf(blocks, "The language reserves")).toBe("body");
  });

  test("an authority page that disclaims endorsement before the first chapter is boilerplate; an errata page after the contents too", () => {
    // A page of prose (over 250 words, paragraphs of 40 and more) whose only imprint lines are a
    // copyright statement, a revision and the disclaimer.
    const authority = [
      "This publication has been developed by the institute to further its statutory responsibilities under the act that founded it, and it is not subject to copyright in this country. The institute is responsible for developing standards and guidelines, including minimum requirements for the systems of the agencies, but such standards shall not apply to other systems without approval.",
      "Special Publication 12, Revision 2, is available from the institute's library together with its earlier revisions. Nothing in this publication should be taken to contradict the standards and guidelines made binding on agencies, nor should these guidelines be read as altering the existing authorities of any official who holds them under the law of the land.",
      "Certain commercial entities, equipment or materials may be identified in this document in order to describe an experimental procedure or concept adequately. Such identification is not intended to imply recommendation by the institute, nor is it intended to imply that the entities, materials or equipment are necessarily the best available for the purpose that they serve.",
      "Organizations are encouraged to review the draft publications of the institute during the designated public comment periods and to provide their feedback, and many other publications of the institute are available on its website, where readers may also find the comments that were received on earlier drafts of this one and the answers the authors gave to them.",
    ];
    const contents = [
      "1 Introduction . . . . 1",
      "2 Methods . . . . 4",
      "3 Results . . . . 7",
      "4 Discussion . . . . 9",
    ];
    const blocks = paged([
      p("Special Publication 12", 1),
      p("A Report on Example Systems", 1),
      h("Authority", 2),
      ...authority.map((t) => p(t, 2)),
      p("Executive Summary", 3),
      prosePage("summary", 3),
      prosePage("summary's end", 3),
      ...contents.map((t) => p(t, 4)),
      p("Errata", 5),
      p("This table lists the changes made to the publication since it first appeared.", 5),
      p("DATE | TYPE | CHANGE | PAGE", 5),
      ...Array.from({ length: 12 }, (_, i) => prosePage(`method ${i + 1}`, i + 6)),
    ]);
    for (const t of authority) expect(roleOf(blocks, t.slice(0, 30))).toBe("boilerplate");
    expect(roleOf(blocks, "This table lists the changes")).toBe("boilerplate");
    expect(roleOf(blocks, "The summary is discussed")).toBe("body");
    expect(blocks.filter((b) => b.page! >= 6 && b.role !== "body")).toEqual([]);
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
