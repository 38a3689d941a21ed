/**
 * A licence text under its own heading in the middle of a document (#28; the LilyPond web manual
 * ends its "Manuals" chapter with the GFDL and goes on with "Community"): the licence's section is
 * boilerplate, the chapters around it are taught.
 */
import { expect, test } from "bun:test";
import { type Block, block } from "../../src/ingest/document.ts";
import { resultOf } from "../../src/ingest/result.ts";

const paged = (blocks: Block[]) =>
  resultOf(blocks, { title: null, mimeType: "application/pdf", pages: 30 }, "page").blocks;
const p = (text: string, page: number) => block("paragraph", text, { page });
const h = (text: string, page: number, level: number) => block("heading", text, { page }, { level });

const prosePage = (topic: string, page: number) =>
  p(
    Array.from(
      { length: 4 },
      (_, i) =>
        `The ${topic} is discussed in part ${i + 1} of this page with enough ordinary words to make a real paragraph that readers would study.`,
    ).join(" "),
    page,
  );

const LICENCE = [
  "Example Documentation License, Version 1, March 2001. Copyright (C) 2001 Example Foundation, Inc. Everyone is permitted to copy and distribute verbatim copies of this license document, but changing it is not allowed.",
  "1. The licensor hereby grants the licensee a royalty-free licence to copy the work, provided that the licensee shall keep this notice intact on every copy it distributes.",
  "2. The licensee shall not sublicense the work; any attempt to sublicense it is void and shall terminate the rights granted herein.",
  "3. The work is provided without warranty of any kind, including the implied warranties of merchantability and fitness for a particular purpose.",
  "4. In no event shall the licensor be liable for any damages arising out of the use of the work, and the licensee waives any claim thereof.",
  "5. Notwithstanding the above, the licensee may distribute the work under the terms and conditions of this licence, provided that each copy carries it.",
];

test("a licence's own section in mid-document is boilerplate; the chapters before and after are taught", () => {
  const blocks = paged([
    h("Introduction", 1, 1),
    ...Array.from({ length: 9 }, (_, i) => prosePage(`introduction ${i + 1}`, i + 1)),
    h("Manuals", 10, 1),
    prosePage("manual", 10),
    h("Documentation License", 11, 2),
    ...LICENCE.flatMap((t) => [p(t, 11), p(t.replace(/^\d\./, "6."), 12)]),
    h("Community", 13, 1),
    ...Array.from({ length: 14 }, (_, i) => prosePage(`community ${i + 1}`, i + 13)),
  ]);
  expect(blocks.filter((b) => (b.page === 11 || b.page === 12) && b.role !== "boilerplate")).toEqual([]);
  expect(blocks.filter((b) => b.page !== 11 && b.page !== 12 && b.role !== "body").map((b) => b.text)).toEqual([]);
});
