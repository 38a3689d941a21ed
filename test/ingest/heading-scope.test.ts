/** How far a heading reaches in the document model: front matter headings enclose only front matter. */
import { expect, test } from "bun:test";
import type { Block, BlockRole } from "../../src/ingest/document.ts";
import { headingPaths } from "../../src/ingest/document.ts";

const heading = (text: string, role: BlockRole, page: number, level = 1): Block => ({
  kind: "heading",
  text,
  role,
  page,
  level,
});
const para = (text: string, role: BlockRole, page: number): Block => ({ kind: "paragraph", text, role, page });

test("a report's unheaded executive summary is not under the keywords heading before it", () => {
  // SP 800-37's shape: an authority page and a keywords paragraph, each under its own heading, then
  // pages of prose with no heading until the first chapter.
  const blocks = [
    heading("Special Publication 800-37", "title_page", 1),
    heading("Authority", "boilerplate", 3),
    para("This publication has been developed by NIST under its statutory responsibilities.", "boilerplate", 3),
    heading("Keywords", "title_page", 4),
    para("assess; authorization to operate; categorization; control assessment", "title_page", 4),
    para("As we push computers to the edge, building a complex world of systems, risk grows.", "body", 7),
    heading("CHAPTER ONE INTRODUCTION", "body", 20),
    para("The purpose of this publication is to provide guidelines for the framework.", "body", 20),
  ];
  const paths = headingPaths(blocks);
  expect(paths[2]).toEqual(["Authority"]);
  expect(paths[4]).toEqual(["Keywords"]);
  expect(paths[5]).toEqual([]);
  expect(paths[7]).toEqual(["CHAPTER ONE INTRODUCTION"]);
});

test("an acknowledgements heading keeps its list of names, and lets go at the next teaching text", () => {
  const blocks = [
    heading("Acknowledgements", "acknowledgements", 5),
    para("Ron Ross, Kevin Dulany, Peter Duspiva and Kelley Dempsey", "acknowledgements", 5),
    para("Taylor Roberts, Ellen Nadeau and Victoria Pillitteri", "acknowledgements", 6),
    para("Executive Summary: the framework is a disciplined process for managing risk.", "body", 7),
  ];
  expect(headingPaths(blocks)).toEqual([["Acknowledgements"], ["Acknowledgements"], ["Acknowledgements"], []]);
});

test("a paper's title, its first heading, still encloses its sections and their text", () => {
  const blocks = [
    heading("Trace-based Just-in-Time Type Specialization", "title_page", 1),
    para("Andreas Gal, Brendan Eich, Mike Shaver", "title_page", 1),
    para("Dynamic languages such as JavaScript are more difficult to compile.", "abstract", 1),
    heading("1. Introduction", "body", 1, 2),
    para("Dynamic languages such as JavaScript, Python and Ruby are popular.", "body", 1),
  ];
  const paths = headingPaths(blocks);
  expect(paths[2]).toEqual(["Trace-based Just-in-Time Type Specialization"]);
  expect(paths[4]).toEqual(["Trace-based Just-in-Time Type Specialization", "1. Introduction"]);
});
