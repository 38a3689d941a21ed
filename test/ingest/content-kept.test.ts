/**
 * What carries meaning survives extraction: code set in a fixed-pitch font stays a code block with
 * its lines, definition lists read "term — definition", and a word hyphenated across a page or
 * column break is rejoined like a line-end hyphen (a real hyphen kept). On documents the tests
 * build; on real documents in dev-books.test.ts (books of the corpus's dev half) and pdf.test.ts
 * (the R manual's code and tables of terms).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import type { Block } from "../../src/ingest/document.ts";
import { extractHtml } from "../../src/ingest/html.ts";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";
import { manualPdf } from "./build-fixtures.ts";
import { ingestConfig, scratch } from "./support.ts";

const tmp = scratch();
const cfg = ingestConfig(tmp.dir);
afterAll(() => {
  stopExtractionWorkers();
  tmp.remove();
});

const codeBlocks = (blocks: Block[]) => blocks.filter((b) => b.kind === "code").map((b) => b.text);

describe("code in a PDF manual", () => {
  test("lines in a fixed-pitch font between sentences are one code block, fenced in the markdown", async () => {
    const path = await tmp.write(
      "manual.pdf",
      await manualPdf([
        [
          { text: "A function computes the mean of its argument and returns it to the caller." },
          { text: "The function is defined as follows:" },
          { text: "> average <- function(x) {", code: true },
          { text: "    sum(x) / length(x)", code: true },
          { text: "}", code: true },
          { text: "With this function defined, averages of any vector are one call away." },
        ],
      ]),
    );
    const r = await extractFile(path, "manual.pdf", cfg);
    expect(codeBlocks(r.blocks)).toEqual(["> average <- function(x) {\n    sum(x) / length(x)\n}"]);
    expect(r.markdown).toContain("The function is defined as follows:\n\n```\n> average <- function(x) {");
    // The sentences around it stay prose.
    const prose = r.blocks.filter((b) => b.kind === "paragraph").map((b) => b.text);
    expect(prose.join(" ")).not.toContain("average <-");
  });
});

/** A DOCX of paragraphs, each a run in `font` when given (Consolas for code), or empty. */
function codeDocx(paragraphs: { text: string; font?: string }[]): Uint8Array {
  const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const run = (p: { text: string; font?: string }) =>
    p.text
      ? `<w:r>${p.font ? `<w:rPr><w:rFonts w:ascii="${p.font}" w:hAnsi="${p.font}"/></w:rPr>` : ""}<w:t xml:space="preserve">${p.text}</w:t></w:r>`
      : "";
  const body = paragraphs.map((p) => `<w:p>${run(p)}</w:p>`).join("");
  return zipSync({
    "[Content_Types].xml": strToU8(`<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`),
    "_rels/.rels": strToU8(`<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`),
    "word/document.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:document ${ns}><w:body>${body}</w:body></w:document>`,
    ),
  });
}

describe("code in a DOCX", () => {
  test("paragraphs set in a fixed-pitch font are one listing, its indentation and blank lines kept", async () => {
    const path = await tmp.write(
      "guide.docx",
      codeDocx([
        { text: "To create a new document, run the following:" },
        { text: "    // Create the package", font: "Consolas" },
        { text: "    Package p = Package.create();", font: "Consolas" },
        { text: "" },
        { text: '    p.save("hello.docx");', font: "Courier New" },
        { text: "That is all it takes to write a document." },
      ]),
    );
    const r = await extractFile(path, "guide.docx", cfg);
    expect(codeBlocks(r.blocks)).toEqual([
      '    // Create the package\n    Package p = Package.create();\n\n    p.save("hello.docx");',
    ]);
    expect(r.blocks.filter((b) => b.kind === "paragraph").map((b) => b.text)).toEqual([
      "To create a new document, run the following:",
      "That is all it takes to write a document.",
    ]);
  });
});

describe("definition lists", () => {
  const page = (dl: string) =>
    `<html><head><title>Glossary</title></head><body><article><h1>Monitoring terms</h1>
     <p>The words below are used throughout this chapter, each with the meaning given here.</p>
     <dl>${dl}</dl></article></body></html>`;

  test("each definition reads term — definition; several terms share one; a term's every definition carries it", () => {
    const r = extractHtml(
      page(`<dt>Monitoring</dt><dd><p>Collecting, processing, aggregating, and displaying real-time quantitative data about a system.</p></dd>
            <dt>colour</dt><dt>color</dt><dd>The hue of a light.</dd>
            <dt><code>blank</code></dt><dd>A space or tab character.</dd><dd>In a pattern, any run of them.</dd>
            <dt>Stream:</dt><dd>Internet Engineering Task Force</dd>`),
    );
    const texts = r.blocks.map((b) => b.text);
    expect(texts).toContain(
      "Monitoring — Collecting, processing, aggregating, and displaying real-time quantitative data about a system.",
    );
    expect(texts).toContain("colour, color — The hue of a light.");
    expect(texts).toContain("blank — A space or tab character.");
    expect(texts).toContain("blank — In a pattern, any run of them.");
    expect(texts).toContain("Stream — Internet Engineering Task Force");
    // No definition stands without its term.
    expect(texts.filter((t) => t.startsWith("Collecting"))).toEqual([]);
    expect(r.markdown).toContain("`blank` — A space or tab character.");
  });

  test("code and lists inside a definition follow it", () => {
    const r = extractHtml(
      page(`<dt>echo</dt><dd><p>Prints its arguments.</p><pre>echo hello</pre><ul><li>-n: no newline</li></ul></dd>`),
    );
    const shown = r.blocks.map((b) => [b.kind, b.text]);
    const at = shown.findIndex(([, t]) => t === "echo — Prints its arguments.");
    expect(shown.slice(at, at + 3)).toEqual([
      ["paragraph", "echo — Prints its arguments."],
      ["code", "echo hello"],
      ["list_item", "-n: no newline"],
    ]);
  });
});

describe("words split across page and column breaks", () => {
  test("a word hyphenated at the foot of a page, under the next page's running header, is rejoined", async () => {
    const path = await tmp.write(
      "split.pdf",
      await manualPdf(
        [
          [
            { text: "Distance is measured along the straight line that runs from one point to the other," },
            { text: "and the result is the same whichever point is taken first, for the distance be-" },
          ],
          [
            { text: "tween the two points does not depend on the order in which they are named." },
            { text: "A closing sentence with enough words to be a paragraph of its own." },
          ],
        ],
        "Geometry handbook",
      ),
    );
    const r = await extractFile(path, "split.pdf", cfg);
    expect(r.markdown).toContain("for the distance between");
    expect(r.markdown).toContain("the two points does not depend");
    expect(r.markdown).not.toMatch(/be-|\btween/);
  });

  test("a real hyphen split across a page break is kept", async () => {
    const path = await tmp.write(
      "well.pdf",
      await manualPdf(
        [
          [{ text: "The method is simple and its results are well-" }],
          [{ text: "known to every student of the subject who has read this far into the book." }],
        ],
        "Methods handbook",
      ),
    );
    const r = await extractFile(path, "well.pdf", cfg);
    expect(r.markdown).toContain("results are well-known");
    expect(r.markdown).not.toContain("wellknown");
  });
});
