/**
 * Documents keep their structure: headings (with levels), lists, tables cell by cell, footnotes
 * and citations, for DOCX, PPTX and HTML, measured against docling's ground truth where there is one.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Block } from "../../src/ingest/document.ts";
import { extractHtml } from "../../src/ingest/html.ts";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";
import { extractOffice } from "../../src/ingest/office.ts";
import { docxWithStyles } from "./build-fixtures.ts";
import { corpus, ingestConfig, scratch } from "./support.ts";

const tmp = scratch();
const cfg = ingestConfig(tmp.dir);
/** The server's budgets, for the small DOCX files these tests build and read without the pool. */
const BUILT_DOCX_LIMITS = {
  maxPdfPages: 1000,
  maxOcrPages: 50,
  maxImagePixels: 40_000_000,
  maxXmlBytes: 10 * 1024 * 1024,
};
afterAll(() => {
  stopExtractionWorkers();
  tmp.remove();
});

/** Lowercase, punctuation stripped, whitespace collapsed. */
const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, "")
    .replace(/\s+/g, " ")
    .trim();

/** Share of the ground truth's `#` headings found among the blocks' headings. */
async function headingRecall(groundTruth: string, blocks: Block[]): Promise<number> {
  const expected = (await Bun.file(corpus(groundTruth)).text())
    .split("\n")
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => norm(l.replace(/^#+/, "")));
  const found = new Set(blocks.filter((b) => b.kind === "heading").map((b) => norm(b.text)));
  return expected.filter((h) => found.has(h)).length / expected.length;
}

const headings = (blocks: Block[]) => blocks.filter((b) => b.kind === "heading").map((b) => [b.level, b.text]);

describe("DOCX", () => {
  test("word_sample: heading recall against docling, title and nested levels, lists", async () => {
    const r = await extractFile(corpus("docx/docling-word_sample.docx"), "word_sample.docx", cfg);
    expect(await headingRecall("docx/ground_truth/docling-word_sample.docling.md", r.blocks)).toBeGreaterThanOrEqual(
      0.9,
    );
    expect(headings(r.blocks)).toEqual([
      [1, "Swimming in the lake"],
      [2, "Let’s swim!"],
      [3, "Let’s eat"],
    ]);
    const items = r.blocks.filter((b) => b.kind === "list_item");
    expect(items.find((b) => b.text === "Paddle about")).toMatchObject({ ordered: false, level: 0 });
    expect(items.find((b) => b.text === "Use sun cream")).toMatchObject({ ordered: true, level: 0 });
    // Numbering id 0 takes a paragraph out of its list.
    expect(r.blocks.find((b) => b.text === "Also, don’t forget:")?.kind).toBe("paragraph");
    expect(r.blocks.find((b) => b.text === "Figure 1: This is a cute duckling")?.kind).toBe("caption");
    const table = r.blocks.find((b) => b.kind === "table")!;
    expect(table.cells).toEqual([
      ["", "Food", "Calories per portion"],
      ["Leaves", "Ash, Elm, Maple", "50"],
      ["Berries", "Blueberry, Strawberry, Cranberry", "150"],
      ["Grain", "Corn, Buckwheat, Barley", "200"],
    ]);
  });

  test("calibre demo: table cells kept apart, merged cells in place, tab stops separated, footnotes linked", async () => {
    const r = await extractFile(corpus("docx/calibre-docx-demo.docx"), "demo.docx", cfg);
    const tables = r.blocks.filter((b) => b.kind === "table");
    const cellTexts = tables.flatMap((t) => t.cells!.flat());
    for (const text of [
      "ITEM",
      "NEEDED",
      "Highlighter",
      "2 colors",
      "City or Town",
      "Point E",
      "Cedar University",
      "Undergraduate",
      "December 2007",
      "Sat",
    ]) {
      expect(cellTexts).toContain(text);
    }
    // The nested table's merged cell holds two paragraphs: kept as two words, in its own table after the outer one.
    expect(cellTexts).toContain("One Three");
    const whole = r.blocks.map((b) => b.text).join("\n");
    for (const t of tables) {
      for (const row of t.cells!) {
        for (let i = 0; i + 1 < row.length; i++) {
          const [a, b] = [row[i]!, row[i + 1]!];
          if (a && b) expect(whole).not.toContain(a + b);
        }
      }
    }
    // The calendar: "Sat" spans two grid columns and stays in the 13th, the days under it in place.
    const calendar = tables.find((t) => t.cells![0]![0] === "December 2007")!;
    const header = calendar.cells!.find((row) => row[0] === "Sun")!;
    expect(header.indexOf("Sat")).toBe(12);
    expect(calendar.cells!.find((row) => row[0] === "2")!.indexOf("8")).toBe(12);
    // Table-of-contents lines: the tab before the page number is a separator, not nothing.
    expect(whole).toContain("Tables | 2");
    expect(whole).not.toMatch(/Tables2|calibre1/);
    // Footnote and endnote: labelled blocks right after the paragraph citing them, the markers out of its text.
    const i = r.blocks.findIndex((b) => b.text.startsWith("Footnotes and endnotes are automatically recognized"));
    expect(r.blocks[i]!.cites).toEqual(["1", "i"]);
    expect(r.blocks[i + 1]).toMatchObject({ kind: "footnote", label: "1" });
    expect(r.blocks[i + 1]!.text).toStartWith("In paged media, footnotes");
    expect(r.blocks[i + 2]).toMatchObject({ kind: "footnote", label: "i" });
    // Web links kept as inline markdown; links to bookmarks inside the document read as text.
    expect(r.markdown).toContain("[calibre download page](http://calibre-ebook.com/download)");
    expect(r.markdown).toContain("back to the section on paragraph level formatting in this document");
    expect(r.blocks.find((b) => b.text === "Three")).toMatchObject({ kind: "list_item", level: 2, ordered: true });
    expect(r.blocks.find((b) => b.text === "This bullet uses an image as the bullet item")).toMatchObject({
      kind: "list_item",
      level: 2,
      ordered: false,
    });
  });

  test('AutoGen paper: localized style ids ("1" for heading 1) still make headings', async () => {
    const r = await extractFile(corpus("docx/markitdown-autogen-paper.docx"), "autogen.docx", cfg);
    const hs = headings(r.blocks);
    expect(hs[0]).toEqual([1, "AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation"]);
    expect(hs).toContainEqual([2, "Abstract"]);
    expect(hs).toContainEqual([2, "Introduction"]);
    expect(r.blocks.find((b) => b.text === "Abstract")?.role).toBe("abstract");
  });

  test("an outline level makes a heading of any style, in the paragraph or in its style", async () => {
    const path = await tmp.write("outline.docx", outlineDocx());
    const r = await extractOffice(path, "outline.docx", "docx", BUILT_DOCX_LIMITS);
    expect(headings(r.blocks)).toEqual([
      [1, "Chapter One"],
      [2, "A direct outline level"],
    ]);
    expect(r.blocks.find((b) => b.text === "Body text in a custom style.")?.kind).toBe("paragraph");
    expect(r.blocks.find((b) => b.text === "Looks like a heading, says body text")?.kind).toBe("paragraph");
    expect(r.segments.map((s) => s.heading)).toEqual(["Chapter One", "A direct outline level"]);
  });
});

describe("DOCX layout tables", () => {
  test("a heading-styled paragraph in a banner table is a heading; a data table stays a table", async () => {
    const path = await tmp.write("banners.docx", bannerDocx());
    const r = await extractOffice(path, "banners.docx", "docx", BUILT_DOCX_LIMITS);
    expect(headings(r.blocks)).toEqual([
      [1, "Introduction"],
      [2, "Levels of verification"],
      [1, "Requirements"],
    ]);
    expect(r.segments.map((s) => s.heading)).toEqual(["Introduction", "Levels of verification", "Requirements"]);
    const tables = r.blocks.filter((b) => b.kind === "table");
    expect(tables.map((t) => t.cells)).toEqual([
      [
        ["Requirement", "Level"],
        ["Passwords are at least twelve characters long.", "1"],
      ],
    ]);
  });
});

describe("PPTX", () => {
  test("powerpoint_sample: slide titles are headings (recall against docling), tables, notes, shapes", async () => {
    const r = await extractFile(corpus("pptx/docling-powerpoint_sample.pptx"), "sample.pptx", cfg);
    expect(
      await headingRecall("pptx/ground_truth/docling-powerpoint_sample.docling.md", r.blocks),
    ).toBeGreaterThanOrEqual(0.9);
    const slideHeadings = r.blocks.filter((b) => b.kind === "heading").map((b) => [b.slide, b.level, b.text]);
    expect(slideHeadings).toEqual([
      [1, 2, "Test Table Slide"],
      [2, 2, "Second slide title"],
      [3, 2, "Slide 3"],
    ]);
    // The heading's text is the title; markdown shows the slide number with it.
    expect(r.markdown).toContain("## Slide 2: Second slide title\n");
    const table = r.blocks.find((b) => b.kind === "table")!;
    expect(table.slide).toBe(1);
    expect(table.cells![0]).toEqual(["", "Class1", "", "", "Class2", "", ""]);
    expect(table.cells![2]).toEqual(["R1", "True", "False", "", "False", "True", "True"]);
    expect(r.blocks.find((b) => b.text === "A rectangle shape with this text inside.")?.slide).toBe(2);
    const slide3 = r.blocks.filter((b) => b.slide === 3);
    const marker = slide3.findIndex((b) => b.text === "Speaker notes:");
    expect(slide3.slice(marker + 1).map((b) => b.text)).toEqual([
      "Final notes on the third slide.",
      "Second line of notes.",
    ]);
    expect(slide3.filter((b) => b.kind === "list_item" && b.ordered).map((b) => b.text)).toContain("List item4");
  });

  test("AutoGen slides: nested shapes, nested list levels, tables as cells", async () => {
    const r = await extractFile(corpus("pptx/markitdown-autogen-slides.pptx"), "autogen.pptx", cfg);
    expect(r.blocks.find((b) => b.text === "This is a nested shape with content in 2 shapes")?.slide).toBe(5);
    expect(r.blocks.find((b) => b.text === "Sub comment 2")).toMatchObject({ kind: "list_item", level: 1 });
    const table = r.blocks.find((b) => b.kind === "table" && b.slide === 3)!;
    expect(table.cells![0]).toEqual(["ColA", "ColB", "ColC", "ColD", "ColE", "ColF"]);
  });
});

describe("HTML", () => {
  test("Wikipedia: headings with levels, footnote markers out of the prose and linked to reference entries", async () => {
    const r = await extractFile(corpus("html/readability-wikipedia/source.html"), "mozilla.html", cfg);
    const hs = headings(r.blocks);
    expect(hs).toContainEqual([2, "History"]);
    expect(hs).toContainEqual([3, "Eich CEO promotion controversy"]);
    expect(hs).toContainEqual([4, "SpiderMonkey"]);
    const body = r.blocks.filter((b) => b.kind !== "reference");
    expect(body.filter((b) => /\[\d+\]/.test(b.text)).map((b) => b.text)).toEqual([]);
    const references = r.blocks.filter((b) => b.kind === "reference" && b.label);
    const labels = new Set(references.map((b) => b.label));
    const cited = body.flatMap((b) => b.cites ?? []);
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.filter((l) => !labels.has(l))).toEqual([]);
    const history = body.find((b) => b.text.startsWith("On January 23, 1998, Netscape made two announcements"))!;
    expect(history.cites).toContain("3");
    const third = references.find((b) => b.label === "3")!;
    expect(third.text).toStartWith('"Freeing the Source: The Story of Mozilla"');
    expect(third.role).toBe("references");
    // The back-link ("^") to the marker is no part of the entry.
    expect(references.some((b) => b.text.startsWith("^"))).toBe(false);
    expect(r.blocks.find((b) => b.text === "Eich CEO promotion controversy")?.markdown ?? "").not.toContain("edit");
  });

  test("lists nest, tables keep spanned cells in place, captions and code languages are kept", () => {
    const html = `<!doctype html><html><head><title>Guide</title></head><body><article>
      <h1>Guide</h1>
      <p>${"An introduction that is long enough for Readability to keep this article as its content. ".repeat(4)}</p>
      <h2>Steps</h2>
      <ol><li>First <a href="https://example.com/a">step</a><ul><li>a detail</li></ul></li><li>Second step</li></ol>
      <table><caption>Table 1: Results</caption>
        <tr><th>Name</th><th colspan="2">Scores</th></tr>
        <tr><td rowspan="2">Ada</td><td>1</td><td>2</td></tr>
        <tr><td>3</td><td>4</td></tr>
      </table>
      <figure><img src="x.png" alt=""><figcaption>Figure 2: A diagram</figcaption></figure>
      <pre><code class="language-python">def f():\n    return 1</code></pre>
      <p>${"Closing words that also count towards the article's length for Readability. ".repeat(3)}</p>
    </article></body></html>`;
    const r = extractHtml(html, "https://example.com/guide");
    // Readability drops the <h1> that repeats the page title; the title is the document's.
    expect(r.title).toBe("Guide");
    expect(headings(r.blocks)).toEqual([[2, "Steps"]]);
    const items = r.blocks.filter((b) => b.kind === "list_item");
    expect(items.map((b) => [b.text, b.level, b.ordered])).toEqual([
      ["First step", 0, true],
      ["a detail", 1, false],
      ["Second step", 0, true],
    ]);
    expect(items[0]!.markdown).toBe("First [step](https://example.com/a)");
    expect(r.blocks.find((b) => b.kind === "table")!.cells).toEqual([
      ["Name", "Scores", ""],
      ["Ada", "1", "2"],
      ["", "3", "4"],
    ]);
    expect(r.blocks.filter((b) => b.kind === "caption").map((b) => b.text)).toEqual([
      "Table 1: Results",
      "Figure 2: A diagram",
    ]);
    expect(r.blocks.find((b) => b.kind === "code")).toMatchObject({ lang: "python", text: "def f():\n    return 1" });
  });
});

/**
 * A DOCX whose headings come from outline levels alone: a custom style "Chapter" with outline
 * level 0 (by its `basedOn` parent), a Normal paragraph with its own outline level 1, and a
 * "Heading 1"-styled paragraph whose own outline level 9 says body text.
 */
function outlineDocx(): Uint8Array {
  const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const styles = `<?xml version="1.0" encoding="UTF-8"?><w:styles ${ns}>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="PartBase"><w:name w:val="Part Base"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Chapter"><w:name w:val="Chapter"/><w:basedOn w:val="PartBase"/></w:style>
<w:style w:type="paragraph" w:styleId="Plain"><w:name w:val="Plain Custom"/><w:basedOn w:val="Normal"/></w:style>
</w:styles>`;
  const p = (text: string, pPr = "") => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ""}<w:r><w:t>${text}</w:t></w:r></w:p>`;
  const document = `<?xml version="1.0" encoding="UTF-8"?><w:document ${ns}><w:body>
${p("Chapter One", '<w:pStyle w:val="Chapter"/>')}
${p("Body text in a custom style.", '<w:pStyle w:val="Plain"/>')}
${p("A direct outline level", '<w:outlineLvl w:val="1"/>')}
${p("Looks like a heading, says body text", '<w:pStyle w:val="Heading1"/><w:outlineLvl w:val="9"/>')}
${p("Closing paragraph.")}
</w:body></w:document>`;
  return docxWithStyles(document, styles);
}

/**
 * A DOCX that sets its chapter titles in one-row banner tables (an empty decoration cell beside the
 * heading-styled title, as OWASP's ASVS 2.0 does), then a data table whose header row is bold body text.
 */
function bannerDocx(): Uint8Array {
  const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const styles = `<?xml version="1.0" encoding="UTF-8"?><w:styles ${ns}>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
</w:styles>`;
  const p = (text: string, style = "", bold = false) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ""}<w:r>${bold ? "<w:rPr><w:b/></w:rPr>" : ""}<w:t>${text}</w:t></w:r></w:p>`;
  const cell = (inner: string) => `<w:tc>${inner || "<w:p/>"}</w:tc>`;
  const row = (...cells: string[]) => `<w:tr>${cells.map(cell).join("")}</w:tr>`;
  const banner = (title: string, style: string) => `<w:tbl>${row("", "", p(title, style))}</w:tbl>`;
  const document = `<?xml version="1.0" encoding="UTF-8"?><w:document ${ns}><w:body>
${banner("Introduction", "Heading1")}
${p("The standard lists the checks a team runs before it ships an application.")}
${banner("Levels of verification", "Heading2")}
${p("Each level asks for deeper testing than the one before it.")}
${banner("Requirements", "Heading1")}
<w:tbl>${row(p("Requirement", "", true), p("Level", "", true))}${row(p("Passwords are at least twelve characters long."), p("1"))}</w:tbl>
${p("The table lists each requirement with the first level that asks for it.")}
</w:body></w:document>`;
  return docxWithStyles(document, styles);
}
